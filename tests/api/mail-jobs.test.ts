/**
 * The mail jobs on the real database, through the real SMTP test server: the payout notice (a monthly payout or an
 * approved cash-out actually sent), the monthly statement (each member's earnings of the month, piece by piece, as
 * the ledger has them) and the weekly digest (followed artists' new pieces). Each mails a member once per send,
 * month or week, however often and from however many instances it runs at once; a member who unsubscribed, with the
 * one-click link of its headers or the signed link of its body, gets nothing more from it until they turn it on in
 * their settings; a forged or changed link is refused.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Types } from 'mongoose';
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { defaultJobs } from '../../server/jobs/scheduler';
import { createLogger } from '../../server/lib/logger';
import { creditedBy, LedgerEntryModel } from '../../server/modules/ledger';
import { MailSendModel } from '../../server/modules/mailings/testing';
import { OutboxMailModel } from '../../server/modules/mail-outbox/testing';
import { FollowModel } from '../../server/modules/follows';
import { ContentModel } from '../../server/modules/contents';
import { UserModel } from '../../server/modules/users';
import { createPayouts, PayoutSendModel } from '../../server/modules/wallet';
import { createTestApp, createTestServices, testConfig } from '../helpers/app';
import { freezeDate } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import {
  adminMember,
  bearer,
  createMember,
  createPiece,
  credit,
  knackBy,
  payListing,
  userAccount,
  type TestMember,
  type TestPiece,
} from '../helpers/ledger-factory';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp';

useTestDatabase();

const FROM = 'Knack <no-reply@knack.test>';
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
/** Two instances of Knack on one database: each its own services (and so its own jobs), sharing nothing in memory. */
let one: ReturnType<typeof createTestServices>;
let two: ReturnType<typeof createTestServices>;
let app: ReturnType<typeof createTestApp>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  one = createTestServices({ mailer: smtpMailer(smtp.url, FROM) });
  two = createTestServices({ mailer: smtpMailer(smtp.url, FROM) });
  app = createTestApp({ services: one, mailer: smtpMailer(smtp.url, FROM) });
});
afterAll(() => smtp.stop());

beforeEach(async () => {
  await clearDatabase();
  smtp.received.length = 0;
});

/** Every mail received so far for `member`. */
const mailsTo = (member: TestMember) => smtp.received.filter((mail) => mail.to.includes(member.email.toLowerCase()));
const onlyMailTo = (member: TestMember): ReceivedMail => {
  const mails = mailsTo(member);
  expect(mails).toHaveLength(1);
  return mails[0]!;
};

/** A header of a received mail, its folded lines joined. */
function headerOf(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!;
  const match = new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return match?.[1]!.replace(/\r?\n[ \t]+/g, ' ').trim();
}

const UNSUBSCRIBE_LINK = /http:\/\/knack\.test\/mail\/unsubscribe\?token=([A-Za-z0-9._%-]+)/;

/** The one-click link of a mail: its List-Unsubscribe header, which must be the link at its foot too. */
function unsubscribeTokenOf(mail: ReceivedMail): string {
  const header = headerOf(mail, 'List-Unsubscribe');
  const inHeader = UNSUBSCRIBE_LINK.exec(header ?? '');
  expect(header).toBe(`<${inHeader?.[0]}>`);
  expect(headerOf(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  const inBody = UNSUBSCRIBE_LINK.exec(mail.text);
  expect(inBody?.[1]).toBe(inHeader![1]);
  return decodeURIComponent(inHeader![1]!);
}

/** What a mail app sends when its reader presses Unsubscribe (RFC 8058). */
const oneClick = (token: string) => request(app).post('/mail/unsubscribe').query({ token }).type('form').send('List-Unsubscribe=One-Click');

const settingsOf = async (member: TestMember) =>
  (await UserModel.findById(member.id, { willReceiveDigest: 1, willReceiveStatements: 1, willReceivePayoutNotices: 1, willReceiveNews: 1 }).lean())!;

const turnOn = (member: TestMember, choices: Record<string, boolean>) =>
  request(app)
    .post(`/api/v2/user-setting/update-personal/${member.id}`)
    .set(bearer(member))
    .send({ sex: null, birthday: null, bio: '', willReceiveNews: true, willReceivePromotes: false, ...choices })
    .expect(200);

describe('the payout notice', () => {
  const MARCH_1 = new Date('2025-03-01T00:00:00.000Z');

  it('when the monthly payout sends a balance, then the member is mailed the amount, the fee, what was sent and where, once however often the job runs', async () => {
    const ana = await createMember({ paypal: 'ana.pay@example.com' });
    await credit(ana, 20_000_000);

    await one.payouts.runMonthly(MARCH_1);
    await Promise.all([one.mailings.sendPayoutNotices(), one.mailings.sendPayoutNotices()]);
    await one.mailings.sendPayoutNotices();

    const mail = onlyMailTo(ana);
    expect(mail.subject).toBe('Your Knack payout was sent');
    expect(mail.text).toContain('Your payout of $20.00 for February 2025 was sent: $19.60 went to your PayPal account an***@example.com.');
    expect(mail.text).toContain('The payout provider kept its fee of $0.40.');
    expect(mail.text).toContain('Open my wallet: http://knack.test/wallet');
    expect(mail.raw).toContain('Content-Type: text/html');
    unsubscribeTokenOf(mail);
    expect(await MailSendModel.findById(`payout-notice:payout:${ana.id}:2025-02`).lean()).toMatchObject({ kind: 'payout-notice', status: 'sent' });
  });

  it('when an admin approves a cash-out, then the member gets the one notice, not a second one from the job', async () => {
    const [ana, admin] = await Promise.all([createMember({ paypal: 'ana.pay@example.com' }), adminMember()]);
    await credit(ana, 20_000_000);
    const asked = await request(app).post('/api/v2/user-history/earn').set(bearer(ana)).send({ userId: ana.id }).expect(201);
    const historyId = asked.body.item.historyId as string;
    await request(app).post('/api/v2/user-history/approve').set(bearer(admin)).send({ historyId }).expect(200);

    await Promise.all([one.mailings.sendPayoutNotices(), two.mailings.sendPayoutNotices()]);

    const mail = onlyMailTo(ana);
    expect(mail.subject).toBe('Your Knack cash-out was sent');
    expect(mail.text).toContain('Your cash-out of $20.00 was approved: $19.60 was sent to your PayPal account an***@example.com.');
    expect(mail.text).toContain('The payout provider kept its fee of $0.40.');
    unsubscribeTokenOf(mail);
  });

  it('when payouts were sent by a process that stopped before mailing, then two instances running the job at once mail each member once', async () => {
    const members = await Promise.all([0, 1, 2].map((i) => createMember({ paypal: `m${i}@example.com` })));
    for (const member of members) await credit(member, 15_000_000);
    // A payout run with no notice behind it, as a process that stopped right after sending leaves it.
    const silent = createPayouts({
      provider: { kind: 'sandbox', send: async ({ payoutId }) => ({ providerRef: `ref-${payoutId}` }) },
      fees: testConfig().payouts,
      logger: createLogger('silent'),
    });
    await silent.runMonthly(MARCH_1);
    expect(smtp.received).toHaveLength(0);

    const runs = await Promise.all([one.mailings.sendPayoutNotices(), two.mailings.sendPayoutNotices(), one.mailings.sendPayoutNotices()]);

    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(3);
    for (const member of members) expect(onlyMailTo(member).subject).toBe('Your Knack payout was sent');
  });

  it('when the payout provider has not taken a payout yet, then no notice goes out until it is sent', async () => {
    const ana = await createMember({ paypal: 'ana.pay@example.com' });
    await credit(ana, 12_000_000);
    const failing = createPayouts({
      provider: { kind: 'sandbox', send: async () => Promise.reject(new Error('PayPal is down')) },
      fees: testConfig().payouts,
      logger: createLogger('silent'),
    });
    await failing.runMonthly(MARCH_1);
    expect((await PayoutSendModel.findById(`payout:${ana.id}:2025-02`).lean())!.status).toBe('pending');

    await one.mailings.sendPayoutNotices();
    expect(mailsTo(ana)).toHaveLength(0);

    await PayoutSendModel.updateOne({ _id: `payout:${ana.id}:2025-02` }, { $set: { claimedUntil: new Date(0) } });
    await one.payouts.runMonthly(MARCH_1); // sends what the last run could not
    await one.mailings.sendPayoutNotices();
    expect(onlyMailTo(ana).text).toContain('Your payout of $12.00 for February 2025 was sent: $11.76 went to your PayPal account an***@example.com.');
  });

  it('when the member unsubscribed from payout notices, then their payouts are paid and they get no notice', async () => {
    const ana = await createMember({ paypal: 'ana.pay@example.com' });
    await UserModel.updateOne({ _id: ana.id }, { $set: { willReceivePayoutNotices: false } });
    await credit(ana, 20_000_000);

    await one.payouts.runMonthly(MARCH_1);
    await one.mailings.sendPayoutNotices();

    expect((await PayoutSendModel.findById(`payout:${ana.id}:2025-02`).lean())!.status).toBe('sent');
    expect(mailsTo(ana)).toHaveLength(0);
  });
});

describe('the monthly statement', () => {
  const FEB_1 = new Date('2025-02-01T06:00:00.000Z');
  const inJanuary = (day: number) => new Date(Date.UTC(2025, 0, day, 12));
  const viewers = () => Promise.all([0, 1, 2, 3].map(() => createMember()));

  /** The member's knacks of January by piece, read straight from the ledger the factory wrote. */
  async function januaryFromLedger(member: TestMember) {
    const entries = await LedgerEntryModel.find({ kind: 'knack', accounts: userAccount(member.id) }).lean();
    const rows = new Map<string, { knacks: number; grossMicros: number; shareMicros: number }>();
    for (const entry of entries.filter((e) => e.at >= new Date('2025-01-01T00:00:00Z') && e.at < new Date('2025-02-01T00:00:00Z'))) {
      const row = rows.get(String(entry.contentId)) ?? { knacks: 0, grossMicros: 0, shareMicros: 0 };
      row.knacks += 1;
      row.grossMicros += creditedBy(entry);
      row.shareMicros += entry.legs.filter((leg) => leg.account === userAccount(member.id)).reduce((sum, leg) => sum + leg.amountMicros, 0);
      rows.set(String(entry.contentId), row);
    }
    return rows;
  }

  /** Ana owns a piece Bea supported (90/10) and one she paid herself (all hers); knacks in December, January and February. */
  async function earnings() {
    const [ana, bea] = await Promise.all([createMember({ username: 'ana_statement' }), createMember({ username: 'bea_statement' })]);
    const supported: TestPiece = await payListing(await createPiece(ana, { title: 'Harbour Lights', knackRateMicros: 50_000 }), bea);
    const own: TestPiece = await payListing(await createPiece(ana, { title: 'Salt & Stone', knackRateMicros: 120_000 }), ana);
    const fans = await viewers();
    await knackBy(fans[0]!, supported, new Date('2024-12-31T23:59:59Z')); // December: not in January's statement
    await knackBy(fans[1]!, supported, inJanuary(3));
    await knackBy(fans[2]!, supported, inJanuary(17));
    await knackBy(fans[3]!, supported, new Date('2025-01-31T23:59:59Z'));
    await knackBy(fans[0]!, own, inJanuary(9));
    await knackBy(fans[1]!, own, inJanuary(21));
    await knackBy(fans[2]!, own, new Date('2025-02-01T00:00:00Z')); // February
    return { ana, bea, fans, supported, own };
  }

  it("when the month ends, then each member who earned is mailed the month's knacks, gross and share of each piece as the ledger has them, with a link to the wallet", async () => {
    const { ana, bea, fans, supported, own } = await earnings();

    const summary = await one.mailings.sendMonthlyStatements(FEB_1);

    expect(summary).toMatchObject({ sent: 2 });
    const anas = await januaryFromLedger(ana);
    expect(anas.get(supported.id)).toEqual({ knacks: 3, grossMicros: 150_000, shareMicros: 135_000 });
    expect(anas.get(own.id)).toEqual({ knacks: 2, grossMicros: 240_000, shareMicros: 240_000 });
    expect(anas.size).toBe(2);
    const mail = onlyMailTo(ana);
    expect(mail.subject).toBe('Your Knack earnings for January 2025');
    expect(mail.text).toContain('In January 2025 your pieces and the pieces you support earned $0.375 from 5 knacks.');
    expect(mail.text).toContain('- "Harbour Lights": 3 knacks, $0.15 in all, your share $0.135');
    expect(mail.text).toContain('- "Salt & Stone": 2 knacks, $0.24 in all, your share $0.24');
    expect(mail.text).toContain('Open my wallet: http://knack.test/wallet');
    expect(mail.text).toContain('Salt &#38; Stone'); // the HTML part escapes the title
    unsubscribeTokenOf(mail);

    const beas = await januaryFromLedger(bea);
    expect([...beas]).toEqual([[supported.id, { knacks: 3, grossMicros: 150_000, shareMicros: 15_000 }]]);
    const beaMail = onlyMailTo(bea);
    expect(beaMail.text).toContain('In January 2025 your pieces and the pieces you support earned $0.015 from 3 knacks.');
    expect(beaMail.text).toContain('- "Harbour Lights": 3 knacks, $0.15 in all, your share $0.015');

    // The fans earned nothing: no statement.
    for (const fan of fans) expect(mailsTo(fan)).toHaveLength(0);
  });

  it('when the job runs twice, and from two instances at once, then each member gets one statement', async () => {
    const { ana, bea } = await earnings();

    await one.mailings.sendMonthlyStatements(FEB_1);
    await Promise.all([one.mailings.sendMonthlyStatements(FEB_1), two.mailings.sendMonthlyStatements(FEB_1), two.mailings.sendMonthlyStatements(FEB_1)]);

    expect(mailsTo(ana)).toHaveLength(1);
    expect(mailsTo(bea)).toHaveLength(1);
    expect(await MailSendModel.findById(`statement:${ana.id}:2025-01`).lean()).toMatchObject({ kind: 'statement', status: 'sent' });
  });

  it('when two instances start the month at once, then each member still gets one statement', async () => {
    const { ana, bea } = await earnings();
    await Promise.all([one.mailings.sendMonthlyStatements(FEB_1), two.mailings.sendMonthlyStatements(FEB_1)]);
    expect(mailsTo(ana)).toHaveLength(1);
    expect(mailsTo(bea)).toHaveLength(1);
  });

  it('when the mail server refuses the statements, then they are kept in the outbox, a second run sends none, and each arrives once when the server takes mail again', async () => {
    const { ana, bea } = await earnings();
    const refusing = createTestServices({
      mailer: {
        kind: 'smtp',
        send: async () => Promise.reject(new Error('421 try again later')),
      },
    });

    // Kept is as good as sent for the month's key: the outbox delivers them.
    expect(await refusing.mailings.sendMonthlyStatements(FEB_1)).toEqual({ sent: 2, failed: 0 });
    expect(await MailSendModel.findById(`statement:${ana.id}:2025-01`).lean()).toMatchObject({ status: 'sent' });
    expect(await OutboxMailModel.countDocuments({ state: 'waiting', subject: 'Your Knack earnings for January 2025' })).toBe(2);
    expect(smtp.received).toHaveLength(0);
    expect(await one.mailings.sendMonthlyStatements(FEB_1)).toEqual({ sent: 0, failed: 0 });

    const clock = freezeDate(Date.now() + 60_000);
    try {
      expect(await one.mailOutbox.deliverDue()).toMatchObject({ sent: 2, failed: 0 });
    } finally {
      clock.restore();
    }
    expect(onlyMailTo(ana).subject).toBe('Your Knack earnings for January 2025');
    expect(mailsTo(bea)).toHaveLength(1);
  });

  it('when more members than one page earned, then every one of them is mailed once', async () => {
    const [owner, viewer] = await Promise.all([createMember(), createMember()]);
    const fans = await Promise.all(Array.from({ length: 7 }, () => createMember()));
    // Each fan supported a piece of the owner's, so each earns a tenth of its knacks.
    for (const fan of fans) await knackBy(viewer, await payListing(await createPiece(owner), fan), inJanuary(10));

    const summary = await one.mailings.sendMonthlyStatements(FEB_1, { pageSize: 3 });

    expect(summary.sent).toBe(8);
    for (const member of [owner, ...fans]) expect(mailsTo(member)).toHaveLength(1);
    expect(mailsTo(viewer)).toHaveLength(0);
  });

  it('when the member unsubscribed with the link of a statement, then the next month brings them none, until they turn it on again', async () => {
    const { ana, bea } = await earnings();
    await one.mailings.sendMonthlyStatements(FEB_1);
    const token = unsubscribeTokenOf(onlyMailTo(ana));

    const page = await oneClick(token).expect(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('You are unsubscribed from the monthly statement.');
    expect(await settingsOf(ana)).toMatchObject({ willReceiveStatements: false, willReceivePayoutNotices: true, willReceiveDigest: true });
    await oneClick(token).expect(200); // again: nothing more to change

    smtp.received.length = 0;
    await knackBy(bea, { ...(await createPiece(ana)), payerId: ana.id }, new Date('2025-02-10T00:00:00Z'));
    const march = new Date('2025-03-01T06:00:00.000Z');
    await one.mailings.sendMonthlyStatements(march);
    expect(mailsTo(ana)).toHaveLength(0);

    const user = await turnOn(ana, { willReceiveStatements: true });
    expect(user.body.user).toMatchObject({ willReceiveStatements: true });
    await one.mailings.sendMonthlyStatements(march);
    expect(onlyMailTo(ana).subject).toBe('Your Knack earnings for February 2025');
  });
});

describe('the weekly digest', () => {
  /** A Monday: the digest covers the ISO week before it, 2025-W10 (3 to 9 March). */
  const MONDAY = new Date('2025-03-10T08:00:00.000Z');
  const IN_THE_WEEK = new Date('2025-03-05T10:00:00.000Z');

  async function publishedAt(piece: TestPiece, at: Date, setting: Record<string, boolean> = {}) {
    await ContentModel.collection.updateOne(
      { _id: new Types.ObjectId(piece.id) },
      { $set: { uploadedAt: at, ...Object.fromEntries(Object.entries(setting).map(([key, value]) => [`setting.${key}`, value])) } },
    );
    return piece;
  }
  const follow = (follower: TestMember, followed: TestMember) =>
    FollowModel.create({ _id: `${follower.id}:${followed.id}`, followerId: follower.id, followedId: followed.id, at: new Date('2025-01-01T00:00:00Z') });

  async function catalogue() {
    const [ana, dan, eve, cleo] = await Promise.all([
      createMember({ username: 'ana_digest' }),
      createMember({ username: 'dan_digest' }),
      createMember({ username: 'eve_digest' }),
      createMember({ username: 'cleo_digest' }),
    ]);
    await publishedAt(await createPiece(ana, { title: 'Morning Tide', type: 'music' }), IN_THE_WEEK);
    await publishedAt(await createPiece(ana, { title: 'For Followers', type: 'art' }), IN_THE_WEEK, { public: false, followers: true });
    await publishedAt(await createPiece(ana, { title: 'Kept Private' }), IN_THE_WEEK, { public: false, private: true });
    await publishedAt(await createPiece(ana, { title: 'Last Month' }), new Date('2025-02-20T10:00:00Z'));
    await publishedAt(await createPiece(ana, { title: 'This Monday' }), new Date('2025-03-10T07:00:00Z'));
    await publishedAt(await createPiece(dan, { title: 'Old Roads' }), new Date('2025-02-01T10:00:00Z'));
    await publishedAt(await createPiece(eve, { title: 'Not Followed' }), IN_THE_WEEK);
    await follow(cleo, ana);
    await follow(cleo, dan);
    return { ana, dan, eve, cleo };
  }

  it("when followed artists published this week, then the member gets their new pieces only, not others' or older ones", async () => {
    const { ana, dan, eve, cleo } = await catalogue();

    const summary = await one.mailings.sendWeeklyDigests(MONDAY);

    expect(summary).toMatchObject({ sent: 1 });
    const mail = onlyMailTo(cleo);
    expect(mail.subject).toBe('New on Knack from artists you follow');
    expect(mail.text).toContain('New from "ana_digest" this week:');
    expect(mail.text).toMatch(/- "Morning Tide" \(Music\): http:\/\/knack\.test\/ana_digest-morning-tide-[0-9a-f]{6}/);
    expect(mail.text).toMatch(/- "For Followers" \(Art\): http:\/\/knack\.test\/ana_digest-for-followers-[0-9a-f]{6}/);
    // In the HTML part each piece is a link.
    expect(mail.text).toMatch(/<a href="http:\/\/knack\.test\/ana_digest-morning-tide-[0-9a-f]{6}">&#34;Morning Tide&#34; \(Music\)<\/a>/);
    for (const absent of ['Kept Private', 'Last Month', 'This Monday', 'Old Roads', 'Not Followed', 'dan_digest']) expect(mail.text).not.toContain(absent);
    unsubscribeTokenOf(mail);
    // Nobody follows the others, and Cleo posted nothing: no digest for them.
    for (const member of [ana, dan, eve]) expect(mailsTo(member)).toHaveLength(0);
    expect(await MailSendModel.findById(`digest:${cleo.id}:2025-W10`).lean()).toMatchObject({ kind: 'digest', status: 'sent' });
  });

  it('when nothing new came from the artists a member follows, then no digest is sent', async () => {
    const { dan } = await catalogue();
    const fan = await createMember();
    await follow(fan, dan);
    await one.mailings.sendWeeklyDigests(MONDAY);
    expect(mailsTo(fan)).toHaveLength(0);
  });

  it('when the job runs twice, and from two instances at once, then the member gets one digest', async () => {
    const { cleo } = await catalogue();
    await Promise.all([one.mailings.sendWeeklyDigests(MONDAY), two.mailings.sendWeeklyDigests(MONDAY)]);
    await one.mailings.sendWeeklyDigests(MONDAY);
    expect(mailsTo(cleo)).toHaveLength(1);
  });

  it('when the member turned news mail off, or unsubscribed from the digest, then they get no digest', async () => {
    const { ana } = await catalogue();
    const [quiet, unsubscribed] = await Promise.all([createMember(), createMember()]);
    await Promise.all([follow(quiet, ana), follow(unsubscribed, ana)]);
    await UserModel.updateOne({ _id: quiet.id }, { $set: { willReceiveNews: false } });
    await UserModel.updateOne({ _id: unsubscribed.id }, { $set: { willReceiveDigest: false } });

    await one.mailings.sendWeeklyDigests(MONDAY);

    expect(mailsTo(quiet)).toHaveLength(0);
    expect(mailsTo(unsubscribed)).toHaveLength(0);
  });
});

describe('the unsubscribe links', () => {
  async function digestOf(member: TestMember): Promise<ReceivedMail> {
    const artist = await createMember();
    const piece = await createPiece(artist, { title: 'Fresh' });
    await ContentModel.collection.updateOne({ _id: new Types.ObjectId(piece.id) }, { $set: { uploadedAt: new Date('2025-03-05T10:00:00Z') } });
    await FollowModel.create({ _id: `${member.id}:${artist.id}`, followerId: member.id, followedId: artist.id, at: new Date() });
    await one.mailings.sendWeeklyDigests(new Date('2025-03-10T08:00:00Z'));
    return onlyMailTo(member);
  }

  it('when the page of the link is opened, then it asks first and changes nothing; its button then unsubscribes', async () => {
    const cleo = await createMember();
    const token = unsubscribeTokenOf(await digestOf(cleo));

    const page = await request(app).get('/mail/unsubscribe').query({ token }).expect(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('Stop the weekly digest of new pieces from artists you follow?');
    expect(page.text).toContain(`${cleo.email.slice(0, 2)}***@example.com`);
    expect(page.text).toContain('<form method="post"');
    expect(page.text).toContain('name="List-Unsubscribe" value="One-Click"');
    expect((await settingsOf(cleo)).willReceiveDigest).toBe(true);

    const done = await oneClick(token).expect(200);
    expect(done.text).toContain('You are unsubscribed from the weekly digest.');
    expect(done.text).toContain('You can turn it on again in your settings: <a href="http://knack.test/user-setting">');
    expect(await settingsOf(cleo)).toMatchObject({
      willReceiveDigest: false,
      willReceiveNews: true,
      willReceiveStatements: true,
      willReceivePayoutNotices: true,
    });
  });

  it('when a token is forged or changed, then it is refused and nothing changes', async () => {
    const [cleo, other] = await Promise.all([createMember(), createMember()]);
    const token = unsubscribeTokenOf(await digestOf(cleo));
    const [kind, userId, signature] = token.split('.');
    const forged = [
      `${kind}.${other.id}.${signature}`, // another member
      `statement.${userId}.${signature}`, // another kind of mail
      `${kind}.${userId}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`, // a changed signature
      `${kind}.${userId}.${'A'.repeat(43)}`,
    ];
    for (const bad of forged) {
      const refused = await oneClick(bad).expect(400);
      expect(refused.text).toContain('This unsubscribe link is not valid.');
      const page = await request(app).get('/mail/unsubscribe').query({ token: bad }).expect(400);
      expect(page.text).toContain('This unsubscribe link is not valid.');
    }
    expect(await settingsOf(cleo)).toMatchObject({ willReceiveDigest: true, willReceiveStatements: true });
    expect(await settingsOf(other)).toMatchObject({ willReceiveDigest: true, willReceiveStatements: true });
  });

  it('when a member turns a mail back on in the settings, then it is on again and the other choices stay', async () => {
    const cleo = await createMember();
    await oneClick(unsubscribeTokenOf(await digestOf(cleo))).expect(200);
    // Choices left out of the settings' request stay as they are.
    const off = await turnOn(cleo, { willReceivePayoutNotices: false });
    expect(off.body.user).toMatchObject({ willReceiveNews: true, willReceiveDigest: false, willReceiveStatements: true, willReceivePayoutNotices: false });
    const on = await turnOn(cleo, { willReceiveDigest: true });
    expect(on.body.user).toMatchObject({ willReceiveDigest: true, willReceiveStatements: true, willReceivePayoutNotices: false });
    expect(await settingsOf(cleo)).toMatchObject({ willReceiveDigest: true, willReceivePayoutNotices: false });
  });
});

describe('the jobs', () => {
  it('when the scheduler lists its jobs, then the three mail jobs run their services, under their lease', async () => {
    const storage = localStorage(mkdtempSync(path.join(os.tmpdir(), 'knack-mail-jobs-')));
    const jobs = defaultJobs({ logger: createLogger('silent'), storage, services: one });
    const byName = new Map(jobs.map((job) => [job.name, job]));
    expect([byName.get('payout-notices')?.schedule, byName.get('monthly-statements')?.schedule, byName.get('weekly-digest')?.schedule]).toEqual([
      '4-59/10 * * * *',
      '0 6 1 * *',
      '0 8 * * 1',
    ]);
    const notices = jest.spyOn(one.mailings, 'sendPayoutNotices');
    const statements = jest.spyOn(one.mailings, 'sendMonthlyStatements');
    const digests = jest.spyOn(one.mailings, 'sendWeeklyDigests');
    for (const name of ['payout-notices', 'monthly-statements', 'weekly-digest']) await byName.get(name)!.run();
    expect([notices, statements, digests].map((spy) => spy.mock.calls.length)).toEqual([1, 1, 1]);
  });
});
