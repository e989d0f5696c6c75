/**
 * Crash tests: the app is killed (SIGKILL, by the fault point KNACK_FAULT_POINT names) right after a write step of a
 * knack, a listing fee (paid with a credit, and by card through the webhook), a plan month's credits, a monthly
 * payout, a cash-out, an account deletion and an email change. It is started again later (past every lock and lease
 * the dead process held), the client retries as it would after its request failed, the jobs run once, and then
 * every invariant holds (tests/helpers/invariants.ts): the ledger sums to zero, nothing paid or credited is lost or
 * doubled, no piece is half-monetized, no lock or lease is left held, and the member sees one consistent state.
 */
import bcrypt from 'bcrypt';
import mongoose, { Types } from 'mongoose';
import path from 'node:path';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { sandboxProvider, signatureHeader, type SignedDelivery } from '../../server/integrations/payments';
import { FAULT_POINTS, type FaultPointName } from '../../server/lib/fault-points';
import { commentListsKeptState } from '../../server/modules/comments';
import { FollowModel, followListsKeptState } from '../../server/modules/follows';
import { inboxListsState, unreadCountsState } from '../../server/modules/messages';
import { UserExtModel, UserModel, grantCredits } from '../../server/modules/users';
import { testConfig } from '../helpers/app';
import { listOutbox } from '../../server/integrations/mail/outbox.driver';
import { outboxMailbox } from '../helpers/auth';
import { crashDuring, crashFolder, RESTART_LATER_MS, startCrashApp, tokenAfterRestart, type CrashApp } from '../helpers/crash';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { entriesWithIds, invariantProblems, ledgerBalance, ledgerKeptProblems, walletBalanceSeen } from '../helpers/invariants';
import { adminMember, bearer, createMember, createPiece, knackBy, payListing, type TestMember } from '../helpers/ledger-factory';
import { tokenFromMail } from '../helpers/smtp';

useTestDatabase();

const PASSWORD = 'Str0ng!pass';
const config = testConfig();
/** The sandbox as the apps run it (same secrets): the provider's deliveries, delivered again after a crash as a provider does. */
const sandbox = sandboxProvider({ publicUrl: config.publicUrl, webhookSecret: config.payments.webhookSecret, payerKey: config.payments.sandboxPayerKey });
const started: CrashApp[] = [];
let passwordHash: string;

// Each scenario starts the app twice (a few seconds each) and runs every job once.
jest.setTimeout(120_000);

beforeAll(async () => {
  passwordHash = await bcrypt.hash(PASSWORD, 4);
});
// Each scenario on an empty database: the invariants are checked over the whole of it.
beforeEach(async () => {
  await clearDatabase();
  await seedReferenceData();
});
afterEach(() => Promise.all(started.splice(0).map((app) => app.stop())));

/** A member who signs in with PASSWORD; `paypal` sets their payout address. */
async function member(options: { paypal?: string } = {}): Promise<TestMember> {
  const created = await createMember(options);
  await UserModel.updateOne({ _id: created.id }, { $set: { passwordHash } });
  return created;
}

type Point = `${FaultPointName}` | `${FaultPointName}:${number}`;

/** The app with `point` armed: the calls that do not reach the point set the scenario up. */
async function armed(dir: string, point: Point): Promise<CrashApp> {
  const app = await startCrashApp(dir, { faultPoint: point });
  started.push(app);
  return app;
}

/** `drive` on the app armed with `point` until it dies there: by SIGKILL, before `drive` got its answer. */
async function crashes(app: CrashApp, drive: () => Promise<unknown>) {
  expect(await crashDuring(app, drive)).toEqual({ signal: 'SIGKILL', driveFinished: false });
}

/** Starts the app armed with `point` and crashes it with `drive`. */
async function crash(dir: string, point: Point, drive: (app: CrashApp) => Promise<unknown>) {
  const app = await armed(dir, point);
  await crashes(app, () => drive(app));
}

/** The app started again later, after the crash, with no fault point. */
async function restart(dir: string): Promise<CrashApp> {
  const app = await startCrashApp(dir, { clockShiftMs: RESTART_LATER_MS });
  started.push(app);
  return app;
}

/**
 * A balance of `micros` for `earner`: a piece of theirs, its listing fee paid by card, and one knack by someone else
 * worth that much (as knack/add posts it).
 */
async function earn(earner: TestMember, micros: number) {
  const piece = await payListing(await createPiece(earner, { knackRateMicros: micros }), earner);
  await knackBy(new Types.ObjectId().toHexString(), piece);
}

/** Runs every job once on the restarted app: each takes its lease (none is held by the dead process) and none fails. */
async function runJobs(app: CrashApp): Promise<void> {
  const outcomes = await app.runAllJobs();
  expect(outcomes.filter((job) => !job.taken || job.error)).toEqual([]);
  expect(outcomes.length).toBeGreaterThan(10);
}

/** Every invariant, at the restarted app's clock. */
const invariants = (dir: string) => invariantProblems({ now: new Date(Date.now() + RESTART_LATER_MS), sandboxDir: path.join(dir, 'payouts') });

/** The member as the restarted app sees them (their earlier token has expired by its clock). */
const later = (m: TestMember): TestMember => ({ ...m, token: tokenAfterRestart(m.id) });

const deliver = (app: CrashApp, delivery: SignedDelivery) =>
  request(app.url)
    .post('/api/v2/payments/webhook/sandbox')
    .set(delivery.headers as Record<string, string>)
    .send(delivery.rawBody.toString());

/** The provider's delivery of the same event after the restart: signed again at its time, as a provider's retry is. */
function deliveredAgain(delivery: SignedDelivery): SignedDelivery {
  const signedAt = Math.floor((Date.now() + RESTART_LATER_MS) / 1000);
  return { ...delivery, headers: { ...delivery.headers, 'knack-signature': signatureHeader(config.payments.webhookSecret, delivery.rawBody, signedAt) } };
}

const creditsOf = async (m: TestMember) => {
  const ext = await UserExtModel.findOne({ userId: new Types.ObjectId(m.id) }).lean();
  return { sCredit: ext?.sCredit ?? 0, pCredit: ext?.pCredit ?? 0 };
};

describe.each([FAULT_POINTS.knackAfterWindow, FAULT_POINTS.knackAfterLedger])('a knack, crashed at %s', (point) => {
  it('when the viewer retries, then the knack is paid once, its piece counts it once, and every invariant holds', async () => {
    const dir = crashFolder();
    const [owner, viewer] = await Promise.all([member(), member()]);
    const piece = await createPiece(owner);
    await payListing(piece, owner);
    const knack = (app: CrashApp, who: TestMember) =>
      request(app.url).post('/api/v2/knack/add').set(bearer(who)).send({ contentId: piece.id, userId: viewer.id });

    await crash(dir, point, (app) => knack(app, viewer));
    const app = await restart(dir);
    const retry = await knack(app, later(viewer)).expect(200);
    expect(retry.body.message).toBe(
      point === FAULT_POINTS.knackAfterWindow ? 'Thank you for being apart of our Community.' : 'You have already knacked this piece.',
    );
    await runJobs(app);

    const [entry] = await entriesWithIds([`knack:${piece.id}:${viewer.id}`]);
    expect(entry!.legs).toEqual([
      { account: 'platform:knacks', amountMicros: -retry.body.earnedMicros },
      { account: `user:${owner.id}`, amountMicros: retry.body.earnedMicros },
    ]);
    expect(retry.body.earnedMicros).toBeGreaterThan(0);
    expect(await ledgerBalance(`user:${owner.id}`)).toBe(retry.body.earnedMicros);
    expect(await walletBalanceSeen(app.url, later(owner))).toBe(retry.body.earnedMicros);
    const counted = await mongoose.connection.collection('contents').findOne({ _id: new Types.ObjectId(piece.id) });
    expect(counted!.reactedCount).toBe(1);
    expect(await invariants(dir)).toEqual([]);
  });
});

describe.each([FAULT_POINTS.ledgerAfterSlot, FAULT_POINTS.ledgerAfterEntry, FAULT_POINTS.ledgerAfterClaim])('a ledger post, crashed at %s', (point) => {
  it('when the jobs run before any retry, then the entry is in the ledger once, in one live journal slot, its running totals posted once, the retry changes nothing, and every invariant holds', async () => {
    const dir = crashFolder();
    const [owner, viewer] = await Promise.all([member(), member()]);
    const piece = await payListing(await createPiece(owner), owner);
    const knack = (app: CrashApp, who: TestMember) =>
      request(app.url).post('/api/v2/knack/add').set(bearer(who)).send({ contentId: piece.id, userId: viewer.id });

    await crash(dir, point, (app) => knack(app, viewer));
    const app = await restart(dir);
    // The journal's readers (the ledger-balances job, past the 5-minute grace by the restarted clock) finish the post.
    await runJobs(app);
    const [entry] = await entriesWithIds([`knack:${piece.id}:${viewer.id}`]);
    const value = entry!.legs[1]!.amountMicros;
    expect(value).toBeGreaterThan(0);
    expect(entry!.legs).toEqual([
      { account: 'platform:knacks', amountMicros: -value },
      { account: `user:${owner.id}`, amountMicros: value },
    ]);
    const retry = await knack(app, later(viewer)).expect(200);
    expect(retry.body.message).toBe('You have already knacked this piece.');

    expect(await ledgerKeptProblems()).toEqual({
      'ledger-journal': [],
      'ledger-balances': [],
      'piece-earnings': [],
      'reacted-pieces': [],
      'listing-fees-paid': [],
    });
    expect(await walletBalanceSeen(app.url, later(owner))).toBe(value);
    const money = await request(app.url)
      .get(`/api/v2/knack/get-money/${piece.id}`)
      .set(bearer(later(owner)))
      .expect(200);
    expect(money.body.earnedMicros).toBe(value);
    expect(await invariants(dir)).toEqual([]);
  });
});

describe.each([FAULT_POINTS.creditAfterMovement, FAULT_POINTS.listingAfterCredit, FAULT_POINTS.listingAfterLedger])(
  'a listing fee paid with a credit, crashed at %s',
  (point) => {
    it('when the payer retries, then one credit pays it, the piece is monetized by them, and every invariant holds', async () => {
      const dir = crashFolder();
      const payer = await member();
      const piece = await createPiece(payer);
      await grantCredits(payer.id, { standard: 2, premium: 0 }, `plan:crash-test:${payer.id}`, 'crash-test');
      const pay = (app: CrashApp, who: TestMember) =>
        request(app.url).post('/api/v2/content/paid').set(bearer(who)).send({ userId: payer.id, contentId: piece.id });

      await crash(dir, point, (app) => pay(app, payer));
      const app = await restart(dir);
      const retry = await pay(app, later(payer));
      expect({ status: retry.status, message: retry.body.message }).toEqual({ status: 200, message: 'Paid successfully' });
      await runJobs(app);

      expect(await creditsOf(payer)).toEqual({ sCredit: 1, pCredit: 0 });
      const seen = await request(app.url)
        .get(`/api/v2/user-setting/credits/${payer.id}`)
        .set(bearer(later(payer)))
        .expect(200);
      expect(seen.body.credits).toEqual({ sCredit: 1, pCredit: 0 });
      const [listing] = await entriesWithIds([`listing:${piece.id}`]);
      expect(listing).toMatchObject({ method: 'standard-credit', actorId: new Types.ObjectId(payer.id) });
      expect(await invariants(dir)).toEqual([]);
    });

    it('when the payer never retries, then the jobs finish or undo it: the piece is monetized by the credit, or the credit is back', async () => {
      const dir = crashFolder();
      const payer = await member();
      const piece = await createPiece(payer);
      await grantCredits(payer.id, { standard: 2, premium: 0 }, `plan:crash-test:${payer.id}`, 'crash-test');
      await crash(dir, point, (app) => request(app.url).post('/api/v2/content/paid').set(bearer(payer)).send({ userId: payer.id, contentId: piece.id }));
      const app = await restart(dir);
      await runJobs(app);

      const listed = point === FAULT_POINTS.listingAfterLedger;
      expect(await creditsOf(payer)).toEqual({ sCredit: listed ? 1 : 2, pCredit: 0 });
      const quote = await request(app.url)
        .get(`/api/v2/payments/listing-quote/${piece.id}`)
        .set(bearer(later(payer)))
        .expect(200);
      expect(quote.body).toMatchObject({ isPaidOut: listed, creditsLeft: listed ? 1 : 2 });
      expect(await entriesWithIds([`listing:${piece.id}`])).toHaveLength(listed ? 1 : 0);
      expect(await invariants(dir)).toEqual([]);
    });
  },
);

describe.each([FAULT_POINTS.webhookAfterOrderPaid, FAULT_POINTS.webhookAfterLedger])('a listing fee paid by card, its webhook crashed at %s', (point) => {
  it('when the provider delivers the event again, then the piece is monetized once by the payer, and every invariant holds', async () => {
    const dir = crashFolder();
    const payer = await member();
    const piece = await createPiece(payer);
    const crashing = await armed(dir, point);
    const checkout = await request(crashing.url)
      .post('/api/v2/content/paid')
      .set(bearer(payer))
      .send({ userId: payer.id, contentId: piece.id, useCredit: false })
      .expect(200);
    const sessionId = new URL(checkout.body.checkoutUrl as string).pathname.split('/').pop()!;
    const delivery = (await sandbox.decide(sessionId, true))!.delivery;

    await crashes(crashing, () => deliver(crashing, delivery));
    const app = await restart(dir);
    await deliver(app, deliveredAgain(delivery)).expect(200);
    await runJobs(app);

    const order = await request(app.url)
      .get(`/api/v2/payments/orders/${checkout.body.orderId}`)
      .set(bearer(later(payer)))
      .expect(200);
    expect(order.body.status).toBe('paid');
    const [listing] = await entriesWithIds([`listing:${piece.id}`]);
    expect(listing).toMatchObject({ method: 'card', amountMicros: 650_000, actorId: new Types.ObjectId(payer.id) });
    expect(await ledgerBalance('external:payments')).toBe(-650_000);
    expect(await invariants(dir)).toEqual([]);
  });
});

describe.each([FAULT_POINTS.planAfterPeriod, FAULT_POINTS.creditAfterMovement])('a plan month paid, its webhook crashed at %s', (point) => {
  it('when the provider delivers the event again, then the month’s credits are granted once, and every invariant holds', async () => {
    const dir = crashFolder();
    const subscriber = await member();
    const crashing = await armed(dir, point);
    const opened = await request(crashing.url).post('/api/v2/subscription/create').set(bearer(subscriber)).send({ planId: 1 }).expect(201);
    const sessionId = new URL(opened.body.checkoutUrl as string).pathname.split('/').pop()!;
    const delivery = (await sandbox.decide(sessionId, true))!.delivery;

    await crashes(crashing, () => deliver(crashing, delivery));
    const app = await restart(dir);
    await deliver(app, deliveredAgain(delivery)).expect(200);
    await runJobs(app);

    // Plan 1 (Standard) grants 3 standard credits a month.
    expect(await creditsOf(subscriber)).toEqual({ sCredit: 3, pCredit: 0 });
    const seen = await request(app.url)
      .get(`/api/v2/user-setting/credits/${subscriber.id}`)
      .set(bearer(later(subscriber)))
      .expect(200);
    expect(seen.body.credits).toEqual({ sCredit: 3, pCredit: 0 });
    const status = await request(app.url)
      .get(`/api/v2/subscription/status/${opened.body.subscriptionId}`)
      .set(bearer(later(subscriber)))
      .expect(200);
    expect(status.body.subscription.status).toBe('active');
    expect(await invariants(dir)).toEqual([]);
  });
});

describe.each([FAULT_POINTS.payoutAfterRecord, FAULT_POINTS.payoutAfterLedger, FAULT_POINTS.payoutAfterProvider])(
  'the monthly payout, crashed at %s',
  (point) => {
    it('when the jobs run again, then each balance is paid out once, sent once, and every invariant holds', async () => {
      const dir = crashFolder();
      const [ana, bea] = await Promise.all([member({ paypal: 'ana@paypal.test' }), member({ paypal: 'bea@paypal.test' })]);
      await earn(ana, 12_345_678);
      await earn(bea, 20_000_000);
      // Bea asked for a cash-out that waits: the payout pays her balance and closes it.
      const crashing = await armed(dir, point);
      await request(crashing.url).post('/api/v2/user-history/earn').set(bearer(bea)).send({ userId: bea.id }).expect(201);

      await crashes(crashing, () => crashing.runJob('monthly-payouts'));
      const app = await restart(dir);
      await runJobs(app);

      expect(await ledgerBalance(`user:${ana.id}`)).toBe(5_678);
      expect(await ledgerBalance(`user:${bea.id}`)).toBe(0);
      expect(await walletBalanceSeen(app.url, later(ana))).toBe(5_678);
      expect(await ledgerBalance('external:payouts')).toBeGreaterThan(0);
      const requests = await mongoose.connection
        .collection('cash_out_requests')
        .find({ userId: new Types.ObjectId(bea.id) })
        .toArray();
      expect(requests.map((r) => r.status)).toEqual(['paidByPayout']);
      expect(await invariants(dir)).toEqual([]);
    });
  },
);

describe.each([FAULT_POINTS.cashOutAfterRequest, FAULT_POINTS.payoutAfterRecord, FAULT_POINTS.payoutAfterLedger, FAULT_POINTS.payoutAfterProvider])(
  'a cash-out, crashed at %s',
  (point) => {
    it('when the member or the admin retries, then it is paid once, sent once, and every invariant holds', async () => {
      const dir = crashFolder();
      const [cam, admin] = await Promise.all([member({ paypal: 'cam@paypal.test' }), adminMember()]);
      await earn(cam, 15_000_000);
      const ask = (app: CrashApp, who: TestMember) => request(app.url).post('/api/v2/user-history/earn').set(bearer(who)).send({ userId: cam.id });
      const approve = (app: CrashApp, who: TestMember, historyId: string) =>
        request(app.url).post('/api/v2/user-history/approve').set(bearer(who)).send({ historyId });

      let historyId: string;
      let app: CrashApp;
      if (point === FAULT_POINTS.cashOutAfterRequest) {
        await crash(dir, point, (crashing) => ask(crashing, cam));
        app = await restart(dir);
        // The member's retry finds the request the crash left waiting: there is one.
        const retry = await ask(app, later(cam)).expect(409);
        expect(retry.body.message).toBe('You already have a cash-out request waiting for approval.');
        const waiting = await mongoose.connection
          .collection('cash_out_requests')
          .find({ userId: new Types.ObjectId(cam.id) })
          .toArray();
        expect(waiting.map((r) => r.status)).toEqual(['pending']);
        historyId = String(waiting[0]!._id);
        await approve(app, later(admin), historyId).expect(200);
      } else {
        const crashing = await armed(dir, point);
        historyId = (await ask(crashing, cam).expect(201)).body.item.historyId as string;
        await crashes(crashing, () => approve(crashing, admin, historyId));
        app = await restart(dir);
        await approve(app, later(admin), historyId).expect(200);
      }
      await runJobs(app);

      expect(await ledgerBalance(`user:${cam.id}`)).toBe(0);
      expect(await walletBalanceSeen(app.url, later(cam))).toBe(0);
      const [request_] = await mongoose.connection
        .collection('cash_out_requests')
        .find({ _id: historyId as unknown as Types.ObjectId })
        .toArray();
      expect(request_!.status).toBe('approved');
      expect(await entriesWithIds([`cash-out:${historyId}`])).toHaveLength(1);
      // Her history shows the one cash-out, approved.
      const history = await request(app.url)
        .get(`/api/v2/user-history/get-all/${cam.id}`)
        .set(bearer(later(cam)))
        .expect(200);
      const cashOuts = (history.body.items as { historyId: string; activity: string; status: string }[]).filter((item) => item.historyId === historyId);
      expect(cashOuts.map(({ activity, status }) => ({ activity, status }))).toEqual([
        { activity: 'Your cash-out of $15.00 was approved', status: 'approved' },
      ]);
      expect(await invariants(dir)).toEqual([]);
    });
  },
);

describe.each([FAULT_POINTS.deletionAfterRecord, `${FAULT_POINTS.deletionAfterStep}:1`, `${FAULT_POINTS.deletionAfterStep}:6`] as const)(
  'an account deletion, crashed at %s',
  (point) => {
    it('when the jobs run again, then the account is gone, its balance given up once, and every invariant holds', async () => {
      const dir = crashFolder();
      const dee = await member();
      await earn(dee, 3_000_000);
      const signin = (app: CrashApp) => request(app.url).post('/api/v2/auth/signin').send({ email: dee.email, password: PASSWORD });
      await crash(dir, point, (app) =>
        request(app.url).post(`/api/v2/user-setting/delete-account/${dee.id}`).set(bearer(dee)).send({ password: PASSWORD, giveUpBalance: true }),
      );
      const app = await restart(dir);
      await runJobs(app);

      expect(await UserModel.exists({ _id: dee.id })).toBeNull();
      const refused = await signin(app).expect(401);
      expect(refused.body.message).toBe('Incorrect email or password.');
      expect(await ledgerBalance(`user:${dee.id}`)).toBe(0);
      expect(await ledgerBalance('platform:forfeits')).toBe(3_000_000);
      const deletion = await mongoose.connection.collection('account_deletions').findOne({ _id: dee.id as unknown as Types.ObjectId });
      expect(deletion!.finishedAt).toBeInstanceOf(Date);
      expect(await invariants(dir)).toEqual([]);
    });
  },
);

describe.each([FAULT_POINTS.emailAfterSwitch, FAULT_POINTS.emailAfterCancelLinks])('an email change, its link opened and crashed at %s', (point) => {
  it('when the member opens the link again, then the change is finished: sign-in works with the new email alone, no link mailed to the old one acts, and every invariant holds', async () => {
    const dir = crashFolder();
    const eve = await member();
    const newEmail = `new.${eve.email}`;
    const mailbox = outboxMailbox(path.join(dir, 'mail'));
    const crashing = await armed(dir, point);
    // A password reset mailed to the old address before the change: the change must end it.
    await request(crashing.url).post('/api/v2/auth/request-reset-password').send({ email: eve.email }).expect(200);
    const resetToken = tokenFromMail(await mailbox.nextMailTo(eve.email), '/auth/reset-password');
    await request(crashing.url).post(`/api/v2/user-setting/update-email/${eve.id}`).set(bearer(eve)).send({ email: newEmail, password: PASSWORD }).expect(200);
    const token = tokenFromMail(await mailbox.nextMailTo(newEmail), '/confirm');
    const confirm = (app: CrashApp) => request(app.url).post('/api/v2/auth/confirm-email-change').send({ token });

    await crashes(crashing, () => confirm(crashing));
    expect((await UserModel.findById(eve.id).lean())!.email).toBe(newEmail);
    const app = await restart(dir);
    const again = await confirm(app).expect(200);
    expect(again.body.message).toBe(`Your email is now ${newEmail}.`);
    // Finished now: the link is used up.
    expect((await confirm(app).expect(400)).body.message).toBe('This email change link is invalid or has expired.');
    await runJobs(app);

    const signin = (email: string) => request(app.url).post('/api/v2/auth/signin').send({ email, password: PASSWORD });
    await signin(newEmail).expect(200);
    expect((await signin(eve.email).expect(401)).body.message).toBe('Incorrect email or password.');
    const reset = await request(app.url)
      .post('/api/v2/auth/reset-password')
      .send({ token: resetToken, newPassword: 'Th1ef!pass', passwordConfirm: 'Th1ef!pass' });
    expect({ status: reset.status, message: reset.body.message }).toEqual({ status: 400, message: 'This reset link is invalid or has expired.' });
    // The old address's cancel link works for 7 days from the change.
    const cancelLinks = await mongoose.connection
      .collection('one_time_tokens')
      .find({ userId: new Types.ObjectId(eve.id), purpose: 'email-cancel' })
      .toArray();
    expect(cancelLinks.map((link) => (link.expiresAt as Date).getTime() - Date.now())).toEqual([expect.any(Number)]);
    expect((cancelLinks[0]!.expiresAt as Date).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3_600_000);
    expect(await invariants(dir)).toEqual([]);
  });
});

describe.each([
  // Hits of the point: the other member's follow, then the fan's follow, then the fan's unfollow.
  { change: 'a follow', point: `${FAULT_POINTS.followAfterFact}:2` as Point, following: true },
  { change: 'an unfollow', point: `${FAULT_POINTS.followAfterFact}:3` as Point, following: false },
])('$change, crashed between the follow document and the list events', ({ point, following }) => {
  it('when no one retries, then the follow-repairs job appends the missing events: both lists and both counts are right, and every invariant holds', async () => {
    const dir = crashFolder();
    const [fan, artist, other] = await Promise.all([member(), member(), member()]);
    const follow = (app: CrashApp, who: TestMember, subject: TestMember, set: boolean) =>
      request(app.url).post('/api/v2/follow/make-following').set(bearer(who)).send({ subjectorId: subject.id, myuserId: who.id, set });
    const crashing = await armed(dir, point);
    // Another follower first, so that the artist's list and count have something to be wrong against.
    await follow(crashing, other, artist, true).expect(200);
    await crashes(crashing, async () => {
      if (!following) await follow(crashing, fan, artist, true).expect(200);
      return follow(crashing, fan, artist, following);
    });
    // The fact is there, its events are not: the lists and counts miss the change.
    expect(Boolean(await FollowModel.exists({ _id: `${fan.id}:${artist.id}` }))).toBe(following);
    expect((await followListsKeptState.check()).differences).not.toEqual([]);

    const app = await restart(dir);
    await runJobs(app);

    const as = (viewer: TestMember) => bearer(later(viewer));
    const counts = async (subject: TestMember) => (await request(app.url).get(`/api/v2/follow/get-count/${subject.id}`).set(as(fan)).expect(200)).body;
    const followers = await request(app.url).get(`/api/v2/follow/get-followers/${artist.id}/myuserId/${fan.id}`).set(as(fan)).expect(200);
    expect(followers.body.entries.map((entry: { user: { id: string } }) => entry.user.id)).toEqual(following ? [fan.id, other.id] : [other.id]);
    expect(await counts(artist)).toMatchObject({ followersCount: following ? 2 : 1, isFollowing: following });
    expect(await counts(fan)).toMatchObject({ followingsCount: following ? 1 : 0 });
    expect((await followListsKeptState.check()).differences).toEqual([]);
    expect(await mongoose.connection.collection('follow_pending').countDocuments()).toBe(0);
    expect(await invariants(dir)).toEqual([]);
  });
});

describe.each([
  // Hits of the point: the other member's comment, then the fan's.
  { change: 'a comment', point: `${FAULT_POINTS.commentAfterNumber}:2` as Point, removed: false },
  // The removal's claim is hit once: the fan's removal of their comment.
  { change: "a comment's removal", point: `${FAULT_POINTS.commentAfterRemovalClaim}:1` as Point, removed: true },
])('$change, crashed after its fact and before the rest', ({ point, removed }) => {
  it("when no one retries, then the comment-repairs job finishes it: the piece's comments, its count and both members' lists are right, and every invariant holds", async () => {
    const dir = crashFolder();
    const [fan, artist, other] = await Promise.all([member(), member(), member()]);
    const piece = await createPiece(artist);
    const say = (app: CrashApp, who: TestMember, comment: string) =>
      request(app.url).post('/api/v2/comment/add').set(bearer(who)).send({ comment, userId: who.id, ownerId: artist.id, contentId: piece.id });
    const crashing = await armed(dir, point);
    await say(crashing, other, 'First!').expect(201);
    await crashes(crashing, async () => {
      const said = await say(crashing, fan, 'Lovely light.');
      return removed
        ? request(crashing.url)
            .post(`/api/v2/comment/delete/${said.body.comment.id as string}`)
            .set(bearer(fan))
        : said;
    });

    const app = await restart(dir);
    await runJobs(app);

    const onPiece = (await request(app.url).get(`/api/v2/comment/get-by-content/${piece.id}`).expect(200)).body;
    expect(onPiece.comments.map((comment: { description: string }) => comment.description)).toEqual(removed ? ['First!'] : ['Lovely light.', 'First!']);
    expect(onPiece.total).toBe(removed ? 1 : 2);
    const byFan = (await request(app.url).get(`/api/v2/comment/get-by-user/${fan.id}`).expect(200)).body;
    expect(byFan.comments.map((comment: { description: string }) => comment.description)).toEqual(removed ? [] : ['Lovely light.']);
    const written = await mongoose.connection
      .collection('comments')
      .findOne({ contentId: new Types.ObjectId(piece.id), commentorId: new Types.ObjectId(fan.id) });
    expect(removed ? { text: written!.text, removed: written!.removedAt instanceof Date } : { text: written!.text, removed: false }).toEqual(
      removed ? { text: '', removed: true } : { text: 'Lovely light.', removed: false },
    );
    expect((await commentListsKeptState.check()).differences).toEqual([]);
    expect(await mongoose.connection.collection('comment_pending').countDocuments()).toBe(0);
    expect(await invariants(dir)).toEqual([]);
  });
});

describe('a read mark, crashed between the side’s new version and the member’s count change', () => {
  it('when no one retries, then the message-repairs job appends the count change: the unread badge and the inbox counts are right, and every invariant holds', async () => {
    const dir = crashFolder();
    const [ana, bea] = await Promise.all([member(), member()]);
    const post = (app: CrashApp, who: TestMember, route: string, body: object) => request(app.url).post(`/api/v2/message/${route}`).set(bearer(who)).send(body);
    // Hits of the point: the thread's two first versions (Ana's side, Bea's side), then Bea's read mark.
    const crashing = await armed(dir, `${FAULT_POINTS.messageAfterVersion}:3`);
    const sent = await post(crashing, ana, 'create', { senderId: ana.id, receiverId: bea.id, subject: 'Hello', message: 'A song for you.' }).expect(201);
    const threadId = sent.body.thread.id as string;
    await crashes(crashing, () => post(crashing, bea, 'update-read', { userId: bea.id, messageId: threadId }));
    // The read is in Bea's side, but her counts still say unread.
    expect((await unreadCountsState.check()).differences).not.toEqual([]);

    const app = await restart(dir);
    await runJobs(app);

    const counts = async (who: TestMember) =>
      (
        await request(app.url)
          .get(`/api/v2/message/counts/${who.id}`)
          .set(bearer(later(who)))
          .expect(200)
      ).body;
    expect(await counts(bea)).toEqual({ unread: 0, important: 0, deleted: 0, total: 1 });
    expect(await counts(ana)).toEqual({ unread: 0, important: 0, deleted: 0, total: 1 });
    expect((await unreadCountsState.check()).differences).toEqual([]);
    expect(await mongoose.connection.collection('message_pending').countDocuments()).toBe(0);
    expect(await invariants(dir)).toEqual([]);
  });
});

describe('a message, crashed between the message and the members’ sides', () => {
  const post = (app: CrashApp, who: TestMember, route: string, body: object) => request(app.url).post(`/api/v2/message/${route}`).set(bearer(who)).send(body);
  const get = (app: CrashApp, who: TestMember, route: string) =>
    request(app.url)
      .get(`/api/v2/message/${route}`)
      .set(bearer(later(who)))
      .expect(200)
      .then((res) => res.body);
  /** What a member's inbox shows of their threads: the subject, the last message and whether it is read. */
  const inbox = async (app: CrashApp, who: TestMember) =>
    ((await get(app, who, `by-receiverId/${who.id}`)) as { threads: { subject: string; lastMessage: string; isRead: boolean }[] }).threads.map((thread) => ({
      subject: thread.subject,
      lastMessage: thread.lastMessage,
      isRead: thread.isRead,
    }));
  const settled = async (dir: string) => {
    expect((await unreadCountsState.check()).differences).toEqual([]);
    expect((await inboxListsState.check()).differences).toEqual([]);
    expect(await mongoose.connection.collection('message_pending').countDocuments()).toBe(0);
    expect(await invariants(dir)).toEqual([]);
  };

  it('when a reply crashed and no one retries, then the message-repairs job has both sides take it: it is in both inboxes, unread for the receiver', async () => {
    const dir = crashFolder();
    const [ana, bea] = await Promise.all([member(), member()]);
    // Hits of the point: the thread's first message, then Ana's reply.
    const crashing = await armed(dir, `${FAULT_POINTS.messageAfterAppend}:2`);
    const sent = await post(crashing, ana, 'create', { senderId: ana.id, receiverId: bea.id, subject: 'Hello', message: 'A song for you.' }).expect(201);
    const threadId = sent.body.thread.id as string;
    await post(crashing, bea, 'update-read', { userId: bea.id, messageId: threadId }).expect(200);
    await crashes(crashing, () => post(crashing, ana, 'reply', { senderId: ana.id, messageId: threadId, receiverId: bea.id, message: 'And another.' }));

    const app = await restart(dir);
    // Before the job: the reply is written, but neither inbox shows it.
    expect(await inbox(app, bea)).toEqual([{ subject: 'Hello', lastMessage: 'A song for you.', isRead: true }]);
    await runJobs(app);

    expect(await inbox(app, bea)).toEqual([{ subject: 'Hello', lastMessage: 'And another.', isRead: false }]);
    expect(await inbox(app, ana)).toEqual([{ subject: 'Hello', lastMessage: 'And another.', isRead: true }]);
    expect(await get(app, bea, `counts/${bea.id}`)).toEqual({ unread: 1, important: 0, deleted: 0, total: 1 });
    expect(await get(app, ana, `counts/${ana.id}`)).toEqual({ unread: 0, important: 0, deleted: 0, total: 1 });
    await settled(dir);
  });

  it('when a new thread crashed and no one retries, then the message-repairs job writes both sides: the thread is in both inboxes, unread for the receiver, who is mailed', async () => {
    const dir = crashFolder();
    const [ana, bea] = await Promise.all([member(), member()]);
    const crashing = await armed(dir, `${FAULT_POINTS.messageAfterAppend}:1`);
    await crashes(crashing, () => post(crashing, ana, 'create', { senderId: ana.id, receiverId: bea.id, subject: 'Hello', message: 'A song for you.' }));

    const app = await restart(dir);
    expect(await inbox(app, bea)).toEqual([]);
    expect((await listOutbox(path.join(dir, 'mail'))).filter((mail) => mail.to === bea.email)).toEqual([]);
    await runJobs(app);
    // The new-message mail the request did not live to send.
    expect((await outboxMailbox(path.join(dir, 'mail')).nextMailTo(bea.email)).text).toContain('“Hello”');

    expect(await inbox(app, bea)).toEqual([{ subject: 'Hello', lastMessage: 'A song for you.', isRead: false }]);
    expect(await inbox(app, ana)).toEqual([{ subject: 'Hello', lastMessage: 'A song for you.', isRead: true }]);
    expect(await get(app, bea, `counts/${bea.id}`)).toEqual({ unread: 1, important: 0, deleted: 0, total: 1 });
    await settled(dir);
  });
});
