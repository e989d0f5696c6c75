/**
 * The durable outbox on the real database, through the real SMTP test server taken down and brought back at the same
 * address: while it is down, a sign-up still succeeds and its mail is kept; the job tries it again with a growing wait;
 * once the server is back each kept mail is delivered once (counted at the server), however many instances run the job
 * at once, and a run after that sends nothing; a mail the server never takes is given up on after three days.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { purgeMailOutbox } from '../../server/modules/mail-outbox';
import { OutboxAttemptModel, OutboxMailModel, type OutboxMailDoc } from '../../server/modules/mail-outbox/testing';
import { UserModel } from '../../server/modules/users';
import { createTestApp, createTestServices } from '../helpers/app';
import { createActiveMember, newSignup } from '../helpers/auth';
import { freezeDate, type FrozenDate } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { startSmtpServer, tokenFromMail, type ReceivedMail } from '../helpers/smtp';

useTestDatabase();

const FROM = 'Knack <no-reply@knack.test>';
const NOTHING_DONE = { sent: 0, failed: 0, givenUp: 0, busy: 0, left: 0 };
const MINUTE = 60_000;

interface LogLine {
  level: number;
  msg: string;
  mailId?: string;
  [field: string]: unknown;
}
const logLines: LogLine[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString()) as LogLine);
      done();
    },
  }),
);

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let serverDown = false;
/** Two instances of Knack on one database, each with its own services and so its own outbox job. */
let one: ReturnType<typeof createTestServices>;
let two: ReturnType<typeof createTestServices>;
let app: ReturnType<typeof createTestApp>;
let clock: FrozenDate | undefined;

beforeAll(async () => {
  smtp = await startSmtpServer();
  one = createTestServices({ mailer: smtpMailer(smtp.url, FROM), logger });
  two = createTestServices({ mailer: smtpMailer(smtp.url, FROM), logger });
  app = createTestApp({ services: one, logger, mailer: smtpMailer(smtp.url, FROM) });
});
afterAll(() => smtp.stop());

beforeEach(async () => {
  await clearDatabase();
  smtp.received.length = 0;
  logLines.length = 0;
});
afterEach(async () => {
  clock?.restore();
  clock = undefined;
  if (serverDown) await serverBack();
});

async function serverGoesDown(): Promise<void> {
  await smtp.goDown();
  serverDown = true;
}
async function serverBack(): Promise<void> {
  await smtp.comeBack();
  serverDown = false;
}

const mailsTo = (address: string): ReceivedMail[] => smtp.received.filter((mail) => mail.to.includes(address.toLowerCase()));

/** A header of a received mail, its folded lines joined. */
function headerOf(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!;
  const match = new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return match?.[1]!.replace(/\r?\n[ \t]+/g, ' ').trim();
}

const keptMail = async (id: string) => (await OutboxMailModel.findById(id).lean<OutboxMailDoc>())!;
const waitOf = (mail: OutboxMailDoc) => mail.nextAttemptAt.getTime() - Date.now();
const attemptsOf = async (mailId: string) =>
  (await OutboxAttemptModel.find({ mailId }).lean())
    .sort((a, b) => a._id.localeCompare(b._id, 'en', { numeric: true }))
    .map((attempt) => [attempt._id, attempt.outcome]);

describe('the outbox while the mail server is down', () => {
  it('when the mail server is down, then a sign-up succeeds, its activation mail is kept and tried again later, and it is sent once when the server is back', async () => {
    clock = freezeDate();
    await serverGoesDown();
    const form = newSignup();

    const res = await request(app).post('/api/v2/auth/signup').send(form).expect(201);

    expect(res.body).toEqual({ user: null, token: null, message: 'Check Your Email', reacted_contents: [] });
    expect(await UserModel.countDocuments({ email: form.email })).toBe(1);
    const kept = await OutboxMailModel.find({ to: form.email }).lean<OutboxMailDoc[]>();
    expect(kept).toHaveLength(1);
    const mail = kept[0]!;
    expect(mail).toMatchObject({ state: 'waiting', attempts: 1, subject: 'Activate your Knack account', messageId: `<${mail._id}@knack.test>` });
    expect(mail.lastError).toContain('ECONNREFUSED');
    expect(mail.text).toContain('http://knack.test/confirm?token=');
    // The first retry about a minute later (jitter takes up to a quarter off).
    expect(waitOf(mail)).toBeGreaterThanOrEqual(45_000);
    expect(waitOf(mail)).toBeLessThanOrEqual(MINUTE);
    expect(logLines).toContainEqual(expect.objectContaining({ level: 40, msg: 'mail not delivered; kept to be tried again', mailId: mail._id, attempt: 0 }));

    // Not due yet: the job leaves it.
    expect(await one.mailOutbox.deliverDue()).toEqual(NOTHING_DONE);

    clock.advance(MINUTE);
    expect(await one.mailOutbox.deliverDue()).toEqual({ ...NOTHING_DONE, failed: 1 });
    const second = await keptMail(mail._id);
    expect(second.attempts).toBe(2);
    expect(waitOf(second)).toBeGreaterThanOrEqual(90_000);
    expect(waitOf(second)).toBeLessThanOrEqual(2 * MINUTE);
    expect(smtp.received).toHaveLength(0);

    await serverBack();
    clock.advance(2 * MINUTE);
    expect(await one.mailOutbox.deliverDue()).toEqual({ ...NOTHING_DONE, sent: 1 });

    const received = mailsTo(form.email);
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toBe('Activate your Knack account');
    expect(headerOf(received[0]!, 'Message-ID')).toBe(mail.messageId);
    // Delivered: its body (and the link in it) is kept no longer; the attempts' record stays.
    expect(await OutboxMailModel.findById(mail._id).lean()).toBeNull();
    expect(await attemptsOf(mail._id)).toEqual([
      [`${mail._id}:0`, 'failed'],
      [`${mail._id}:1`, 'failed'],
      [`${mail._id}:2`, 'sent'],
    ]);

    // Run again, even much later: nothing more is sent.
    clock.advance(60 * MINUTE);
    expect(await one.mailOutbox.deliverDue()).toEqual(NOTHING_DONE);
    expect(await two.mailOutbox.deliverDue()).toEqual(NOTHING_DONE);
    expect(mailsTo(form.email)).toHaveLength(1);

    // The delivered link works.
    const token = tokenFromMail(received[0]!, 'http://knack.test/confirm');
    await request(app).post('/api/v2/auth/confirm').send({ token }).expect(200);
  });

  it('when the mail server is down, then a password reset is answered "Email Sent" and its mail comes once the server is back', async () => {
    const ana = await createActiveMember(app, smtp);
    smtp.received.length = 0;
    await RateLimitModel.deleteMany({});
    clock = freezeDate();
    await serverGoesDown();

    await request(app).post('/api/v2/auth/request-reset-password').send({ email: ana.form.email }).expect(200, { message: 'Email Sent' });
    expect(await OutboxMailModel.countDocuments({ to: ana.form.email, state: 'waiting' })).toBe(1);

    await serverBack();
    clock.advance(MINUTE);
    expect(await one.mailOutbox.deliverDue()).toEqual({ ...NOTHING_DONE, sent: 1 });
    const token = tokenFromMail(mailsTo(ana.form.email)[0]!, 'http://knack.test/auth/reset-password');
    await request(app).post('/api/v2/auth/reset-password').send({ token, newPassword: 'N3w!password', passwordConfirm: 'N3w!password' }).expect(200);
  });

  it('when two instances run the job at once after an outage, then each kept mail is sent once', async () => {
    clock = freezeDate();
    await serverGoesDown();
    const addresses = Array.from({ length: 8 }, (_, i) => `kept-${i}@example.com`);
    for (const [i, to] of addresses.entries()) await one.mailOutbox.mailer.send({ to, subject: `Kept mail ${i}`, text: `Mail ${i}`, html: `<p>Mail ${i}</p>` });
    expect(await OutboxMailModel.countDocuments({ state: 'waiting' })).toBe(8);

    await serverBack();
    clock.advance(MINUTE);
    const runs = await Promise.all([one.mailOutbox.deliverDue(), two.mailOutbox.deliverDue(), one.mailOutbox.deliverDue()]);

    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(8);
    expect(runs.reduce((sum, run) => sum + run.failed + run.givenUp, 0)).toBe(0);
    expect(smtp.received).toHaveLength(8);
    for (const to of addresses) expect(mailsTo(to)).toHaveLength(1);
    expect(await OutboxMailModel.countDocuments({})).toBe(0);

    const again = await Promise.all([one.mailOutbox.deliverDue(), two.mailOutbox.deliverDue()]);
    expect(again).toEqual([NOTHING_DONE, NOTHING_DONE]);
    expect(smtp.received).toHaveLength(8);
  });

  it('when the mail server stays down, then a run stops after five failures in a row and leaves the rest for the next', async () => {
    clock = freezeDate();
    await serverGoesDown();
    for (let i = 0; i < 7; i += 1) await one.mailOutbox.mailer.send({ to: `many-${i}@example.com`, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' });

    clock.advance(MINUTE);
    expect(await one.mailOutbox.deliverDue()).toEqual({ ...NOTHING_DONE, failed: 5, left: 2 });
    expect((await OutboxMailModel.find({}).lean<OutboxMailDoc[]>()).map((mail) => mail.attempts).sort()).toEqual([1, 1, 2, 2, 2, 2, 2]);
  });

  it('when the mail server never comes back, then after three days of retries at most an hour apart the mail is given up on, its body emptied and logged at error by id', async () => {
    clock = freezeDate();
    await serverGoesDown();
    await one.mailOutbox.mailer.send({
      to: 'never@example.com',
      subject: 'Reset your password',
      text: 'Open secret-link-4711',
      html: '<a href="http://knack.test/r?token=secret-link-4711">Reset</a>',
    });
    const id = (await OutboxMailModel.findOne({ to: 'never@example.com' }).lean<OutboxMailDoc>())!._id;
    const createdAt = Date.now();

    const waits: number[] = [];
    let mail = await keptMail(id);
    while (mail.state === 'waiting') {
      waits.push(waitOf(mail));
      clock.advance(Math.max(0, waitOf(mail)));
      await one.mailOutbox.deliverDue();
      mail = await keptMail(id);
      if (waits.length > 200) throw new Error('the mail was never given up on');
    }

    expect(mail).toMatchObject({ state: 'failed', text: '', html: '', subject: 'Reset your password', to: 'never@example.com' });
    expect(mail.failedAt!.getTime() - createdAt).toBeGreaterThanOrEqual(3 * 24 * 60 * MINUTE);
    expect(mail.attempts).toBe(waits.length + 1);
    // 1, 2, 4 … minutes, never more than an hour, and an hour (less jitter) once there.
    expect(Math.max(...waits)).toBeLessThanOrEqual(60 * MINUTE);
    for (const [i, minutes] of [1, 2, 4, 8].entries()) {
      expect(waits[i]).toBeGreaterThanOrEqual(0.75 * minutes * MINUTE);
      expect(waits[i]).toBeLessThanOrEqual(minutes * MINUTE);
    }
    expect(waits.at(-1)).toBeGreaterThanOrEqual(45 * MINUTE);
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'mail given up on: the mail server did not take it in three days', mailId: id, attempts: mail.attempts }),
    );
    // No log line holds anything of the body.
    expect(JSON.stringify(logLines)).not.toContain('secret-link-4711');

    // Given up: the job tries it no more, even with the server back.
    await serverBack();
    clock.advance(60 * MINUTE);
    expect(await one.mailOutbox.deliverDue()).toEqual(NOTHING_DONE);
    expect(smtp.received).toHaveLength(0);
  });

  it('when a process stopped in the middle of an attempt, then the attempt is taken over after 15 minutes and the mail sent under the same Message-ID', async () => {
    clock = freezeDate();
    await serverGoesDown();
    await one.mailOutbox.mailer.send({ to: 'halfway@example.com', subject: 'Halfway', text: 'Halfway', html: '<p>Halfway</p>' });
    const mail = (await OutboxMailModel.findOne({ to: 'halfway@example.com' }).lean<OutboxMailDoc>())!;
    // Another process claimed attempt 1 and stopped before it knew whether the mail server took the mail.
    await OutboxAttemptModel.create({ _id: `${mail._id}:1`, mailId: mail._id, messageId: mail.messageId, outcome: 'sending', at: new Date(), endedAt: null });
    await serverBack();

    clock.advance(2 * MINUTE);
    expect(await one.mailOutbox.deliverDue()).toEqual({ ...NOTHING_DONE, busy: 1 });
    expect(smtp.received).toHaveLength(0);

    clock.advance(15 * MINUTE);
    expect(await one.mailOutbox.deliverDue()).toEqual({ ...NOTHING_DONE, sent: 1 });
    expect(headerOf(mailsTo('halfway@example.com')[0]!, 'Message-ID')).toBe(mail.messageId);
    expect(await attemptsOf(mail._id)).toEqual([
      [`${mail._id}:0`, 'failed'],
      [`${mail._id}:1`, 'sending'],
      [`${mail._id}:2`, 'sent'],
    ]);
  });
});

describe('the outbox when the mail server is up', () => {
  it('when a mail is sent, then it is delivered at once and only the record of its attempt is kept', async () => {
    await one.mailOutbox.mailer.send({ to: 'now@example.com', subject: 'At once', text: 'At once', html: '<p>At once</p>' });

    expect(mailsTo('now@example.com')).toHaveLength(1);
    expect(await OutboxMailModel.countDocuments({})).toBe(0);
    const attempts = await OutboxAttemptModel.find({}).lean();
    expect(attempts).toEqual([expect.objectContaining({ outcome: 'sent', messageId: headerOf(mailsTo('now@example.com')[0]!, 'Message-ID') })]);
    expect(await one.mailOutbox.deliverDue()).toEqual(NOTHING_DONE);
  });

  it('when records pass their keeping, then housekeeping removes attempts after a week and given-up mails after 30 days, never a waiting mail', async () => {
    const now = new Date('2026-06-01T00:00:00.000Z');
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * MINUTE);
    const mail = (id: string, state: 'waiting' | 'failed', at: Date) => ({
      _id: id,
      messageId: `<${id}@knack.test>`,
      to: `${id}@example.com`,
      subject: 'Old',
      text: '',
      html: '',
      state,
      attempts: 3,
      nextAttemptAt: at,
      createdAt: at,
      lastError: 'ECONNECTION',
      failedAt: state === 'failed' ? at : null,
    });
    await OutboxMailModel.insertMany([
      mail('failed-31', 'failed', daysAgo(31)),
      mail('failed-29', 'failed', daysAgo(29)),
      mail('waiting-40', 'waiting', daysAgo(40)),
    ]);
    const attempt = (id: string, at: Date) => ({ _id: `${id}:0`, mailId: id, messageId: `<${id}@knack.test>`, outcome: 'sent', at, endedAt: at });
    await OutboxAttemptModel.insertMany([attempt('week-8', daysAgo(8)), attempt('week-6', daysAgo(6))]);

    expect(await purgeMailOutbox(now)).toBe(2);

    expect((await OutboxMailModel.find({}).lean()).map((doc) => doc._id).sort()).toEqual(['failed-29', 'waiting-40']);
    expect((await OutboxAttemptModel.find({}).lean()).map((doc) => doc._id)).toEqual(['week-6:0']);
  });
});
