/**
 * The payout account (the PayPal email payouts and cash-outs go to) on the real database: changing it asks
 * for the current password, wrong guesses are limited per member, accounts without a password are told how
 * to set one, and every change is mailed to the account's own address.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose, { Types } from 'mongoose';
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { sandboxPayoutProvider } from '../../server/integrations/payouts';
import { createLogger } from '../../server/lib/logger';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { holdPayoutEmailSetSince, UserExtModel } from '../../server/modules/users';
import { OutboxMailModel } from '../../server/modules/mail-outbox/testing';
import { PASSWORD_CHECK_LIMIT, PASSWORD_CHECK_MESSAGES } from '../../server/modules/auth';
import { createPayouts, WALLET_MESSAGES } from '../../server/modules/wallet';
import { createTestApp } from '../helpers/app';
import { createActiveMember, GOOD_PASSWORD } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { adminMember, credit, createMember, type TestMember } from '../helpers/ledger-factory';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

type Member = Awaited<ReturnType<typeof createActiveMember>>;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;

const change = (appUnderTest: typeof app, id: string, token: string, body: object) =>
  request(appUnderTest)
    .post(`/api/v2/user-setting/update-payment-info/${id}`)
    .set({ Authorization: `Bearer ${token}` })
    .send(body);
const changeAs = (member: Member, body: object) => change(app, member.user.id, member.token, body);
const payoutEmailOf = async (userId: string) => (await UserExtModel.findOne({ userId }).lean())?.paypal ?? null;
/** How the mail writes a time: to the minute, in UTC. */
const minuteOf = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
}, 60_000);

afterAll(async () => smtp.stop());

beforeEach(async () => RateLimitModel.deleteMany({}));

describe('POST /user-setting/update-payment-info/{id}', () => {
  it('when the member gives the right password, then the email is saved lower-cased, the wallet shows it, and the account address gets a mail with the new address masked', async () => {
    const ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
    const before = new Date();
    const ok = await changeAs(ana, { paypal: '  Andrea.Pay@Example.COM ', password: GOOD_PASSWORD }).expect(200);
    const after = new Date();
    expect(ok.body).toEqual({ message: 'Success', paypal: 'andrea.pay@example.com' });
    expect(await payoutEmailOf(ana.user.id)).toBe('andrea.pay@example.com');
    const summary = await request(app)
      .get(`/api/v2/wallet/summary/${ana.user.id}`)
      .set({ Authorization: `Bearer ${ana.token}` })
      .expect(200);
    expect(summary.body.payoutAccount).toEqual({ paypal: 'andrea.pay@example.com', held: false });

    const mail = await smtp.nextMailTo(ana.form.email);
    expect(mail.raw).toMatch(/^Subject: Your Knack payout email was changed/m);
    expect(mail.text).toContain('Hi Ana,');
    expect(mail.text).toContain('The PayPal email your Knack payouts and cash-outs are sent to was changed to an***@example.com');
    expect([minuteOf(before), minuteOf(after)].some((minute) => mail.text.includes(`on ${minute}.`))).toBe(true);
    expect(mail.text).toContain('If you did not make this change, reset your password now');
    expect(mail.text).toContain('http://knack.test/auth/forgot-password');
    // The full new address is never written in the mail.
    expect(mail.text).not.toContain('andrea.pay@example.com');
  });

  it('when the password is wrong or missing, then it is refused on the password field and nothing changes; no mail is sent', async () => {
    const bea = await createActiveMember(app, smtp, { firstName: 'Bea' });
    await changeAs(bea, { paypal: 'bea@paypal.example', password: GOOD_PASSWORD }).expect(200);
    await smtp.nextMailTo(bea.form.email);

    const wrong = await changeAs(bea, { paypal: 'thief@example.com', password: 'Wr0ng!pass' }).expect(400);
    expect(wrong.body).toMatchObject({
      message: 'Incorrect password.',
      code: 'bad_request',
      errors: [{ path: 'password', message: 'Incorrect password.' }],
    });
    const blank = await changeAs(bea, { paypal: 'thief@example.com', password: '' }).expect(400);
    expect(blank.body).toMatchObject({ message: 'Please input password', errors: [{ path: 'password', message: 'Please input password' }] });
    const missing = await changeAs(bea, { paypal: 'thief@example.com' }).expect(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: 'password' })]);

    expect(await payoutEmailOf(bea.user.id)).toBe('bea@paypal.example');
    // A mail of the refused change would be the next one to arrive; the one that comes is from a later change.
    await changeAs(bea, { paypal: 'bea2@paypal.example', password: GOOD_PASSWORD }).expect(200);
    expect((await smtp.nextMailTo(bea.form.email)).text).toContain('was changed to be***@paypal.example');
    expect(smtp.received.filter((mail) => mail.to.includes(bea.form.email))).toEqual([]);
  });

  it('when the email is not valid, then it is refused before the password is counted; another member or an admin gets 404', async () => {
    const cara = await createActiveMember(app, smtp, { firstName: 'Cara' });
    const admin = await adminMember();
    const bad = await changeAs(cara, { paypal: 'not-an-email', password: 'whatever' }).expect(400);
    expect(bad.body).toMatchObject({ message: WALLET_MESSAGES.badEmail, errors: [{ path: 'paypal', message: WALLET_MESSAGES.badEmail }] });
    expect(await RateLimitModel.countDocuments({ _id: mongoose.trusted({ $regex: `^password-check:${cara.user.id}\\|` }) })).toBe(0);

    const eve = await createMember();
    await change(app, cara.user.id, eve.token, { paypal: 'eve@example.com', password: GOOD_PASSWORD }).expect(404);
    await change(app, cara.user.id, admin.token, { paypal: 'admin@example.com', password: GOOD_PASSWORD }).expect(404);
    await changeAs(cara, { paypal: 'x@y.z', password: GOOD_PASSWORD, extra: 1 }).expect(400);
    expect(await payoutEmailOf(cara.user.id)).toBeNull();
  });

  it('when the account has no password (Google or Facebook sign-in), then it is told to set one through Forgot password, and nothing changes', async () => {
    const social: TestMember = await createMember({ paypal: 'social@paypal.example' });
    const res = await change(app, social.id, social.token, { paypal: 'new@paypal.example', password: 'anything' }).expect(400);
    expect(res.body).toMatchObject({
      message: PASSWORD_CHECK_MESSAGES.notSet,
      code: 'password_not_set',
      errors: [{ path: 'password', message: PASSWORD_CHECK_MESSAGES.notSet }],
    });
    expect(PASSWORD_CHECK_MESSAGES.notSet).toBe(
      'Your account has no password yet (you sign in with Google or Facebook). Set one with “Forgot password”: we email you a link. Then try again.',
    );
    expect(await payoutEmailOf(social.id)).toBe('social@paypal.example');
  });

  it('when wrong passwords go over the limit, then the call answers 429 with Retry-After, even with the right password, for that member only', async () => {
    const dan = await createActiveMember(app, smtp, { firstName: 'Dan' });
    const eli = await createActiveMember(app, smtp, { firstName: 'Eli' });
    expect(PASSWORD_CHECK_LIMIT).toEqual({ max: 5, windowMs: 15 * 60_000 });
    for (let i = 0; i < PASSWORD_CHECK_LIMIT.max; i++) {
      expect((await changeAs(dan, { paypal: 'thief@example.com', password: `Guess${i}!aa` }).expect(400)).body.message).toBe('Incorrect password.');
    }
    for (const password of ['Guess9!aa', GOOD_PASSWORD]) {
      const limited = await changeAs(dan, { paypal: 'thief@example.com', password }).expect(429);
      expect(limited.body).toMatchObject({ message: 'Too many wrong passwords. Please wait and try again.', code: 'too_many_requests' });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    expect(await payoutEmailOf(dan.user.id)).toBeNull();
    // Another member's guesses are their own.
    await changeAs(eli, { paypal: 'eli@paypal.example', password: GOOD_PASSWORD }).expect(200);
  }, 60_000);

  it('when the mail server is down, then the change stands and its notice is kept in the outbox, to be sent once the server is back', async () => {
    const down = await startSmtpServer();
    await down.stop();
    const noMail = createTestApp({ mailer: smtpMailer(down.url, 'Knack <no-reply@knack.test>') });
    const fay = await createActiveMember(app, smtp, { firstName: 'Fay' });
    await changeAs(fay, { paypal: 'fay@paypal.example', password: GOOD_PASSWORD }).expect(200);
    const res = await change(noMail, fay.user.id, fay.token, { paypal: 'fay.new@paypal.example', password: GOOD_PASSWORD }).expect(200);
    expect(res.body).toEqual({ message: 'Success', paypal: 'fay.new@paypal.example' });
    expect(await payoutEmailOf(fay.user.id)).toBe('fay.new@paypal.example');
    expect(await OutboxMailModel.find({ to: fay.form.email, state: 'waiting' }).lean()).toEqual([
      expect.objectContaining({ subject: 'Your Knack payout email was changed' }),
    ]);
  });
});

describe('a held payout email (set while someone else may have had the account)', () => {
  const MARCH_1 = new Date('2025-03-01T00:00:00.000Z');
  const asAdmin = (admin: TestMember, url: string, body: object) =>
    request(app)
      .post(`/api/v2${url}`)
      .set({ Authorization: `Bearer ${admin.token}` })
      .send(body);
  const asMember = (member: Member, url: string, body: object) =>
    request(app)
      .post(`/api/v2${url}`)
      .set({ Authorization: `Bearer ${member.token}` })
      .send(body);
  const summaryOf = async (member: Member) =>
    (
      await request(app)
        .get(`/api/v2/wallet/summary/${member.user.id}`)
        .set({ Authorization: `Bearer ${member.token}` })
        .expect(200)
    ).body;

  it('when the PayPal email is held, then no cash-out or monthly payout goes to it until the member saves it again with their password', async () => {
    const gil = await createActiveMember(app, smtp, { firstName: 'Gil' });
    const earner: TestMember = { id: gil.user.id, username: gil.form.username, email: gil.form.email, token: gil.token };
    const since = new Date();
    await changeAs(gil, { paypal: 'gil@paypal.example', password: GOOD_PASSWORD }).expect(200);
    await credit(earner, 12_000_000);
    const waiting = (await asMember(gil, '/user-history/earn', { userId: gil.user.id }).expect(201)).body.item.historyId as string;

    // What auth does when an email change is undone from the old address: the address set since is held.
    expect(await holdPayoutEmailSetSince(new Types.ObjectId(gil.user.id), since)).toMatchObject({ paypal: 'gil@paypal.example' });
    expect((await summaryOf(gil)).payoutAccount).toEqual({ paypal: 'gil@paypal.example', held: true });

    // An admin cannot send the waiting cash-out to it; once that is cancelled, no new one can be asked for.
    expect((await asAdmin(await adminMember(), '/user-history/approve', { historyId: waiting }).expect(409)).body.message).toBe(
      "The member's PayPal email is on hold until they confirm it with their password. Nothing can be sent to it yet.",
    );
    await asMember(gil, '/user-history/cancel', { historyId: waiting }).expect(200);
    const refused = await asMember(gil, '/user-history/earn', { userId: gil.user.id }).expect(409);
    expect(refused.body).toMatchObject({
      message: 'Your PayPal email is on hold: confirm it with your password in payment settings first.',
      errors: [{ path: 'paypal', message: 'Your PayPal email is on hold: confirm it with your password in payment settings first.' }],
    });
    // The monthly payout passes it by.
    const payouts = createPayouts({
      provider: sandboxPayoutProvider(mkdtempSync(path.join(os.tmpdir(), 'knack-held-'))),
      fees: { feeBasisPoints: 200, feeMaxMicros: 1_000_000 },
      logger: createLogger('silent'),
    });
    expect(await payouts.runMonthly(MARCH_1)).toMatchObject({ paid: 0, skipped: 1 });

    // A wrong password confirms nothing; the right one, with the same address, does.
    await changeAs(gil, { paypal: 'gil@paypal.example', password: 'Wr0ng!pass' }).expect(400);
    expect((await summaryOf(gil)).payoutAccount.held).toBe(true);
    const confirmed = await changeAs(gil, { paypal: 'gil@paypal.example', password: GOOD_PASSWORD }).expect(200);
    expect(confirmed.body).toEqual({ message: 'Your PayPal email is confirmed: payouts and cash-outs go to it again.', paypal: 'gil@paypal.example' });
    expect((await summaryOf(gil)).payoutAccount).toEqual({ paypal: 'gil@paypal.example', held: false });
    expect(await payouts.runMonthly(MARCH_1)).toMatchObject({ paid: 1, totalMicros: 12_000_000 });
  }, 60_000);

  it('when the mail server is down, then a new address still replaces the held one, and the notice about it is kept', async () => {
    const down = await startSmtpServer();
    await down.stop();
    const noMail = createTestApp({ mailer: smtpMailer(down.url, 'Knack <no-reply@knack.test>') });
    const hal = await createActiveMember(app, smtp, { firstName: 'Hal' });
    const since = new Date();
    await changeAs(hal, { paypal: 'hal@paypal.example', password: GOOD_PASSWORD }).expect(200);
    await holdPayoutEmailSetSince(new Types.ObjectId(hal.user.id), since);
    await change(noMail, hal.user.id, hal.token, { paypal: 'hal.new@paypal.example', password: GOOD_PASSWORD }).expect(200);
    expect(await UserExtModel.findOne({ userId: hal.user.id }).lean()).toMatchObject({ paypal: 'hal.new@paypal.example', paypalHeld: false });
    expect(await OutboxMailModel.countDocuments({ to: hal.form.email, state: 'waiting', subject: 'Your Knack payout email was changed' })).toBe(1);
  });
});
