/**
 * The admin dashboard over a small world built by the factories: the figures of today and this month as the
 * admin-stats job counts them from the facts (and only when it runs), the job safe to repeat, the open flags and the
 * waiting cash-outs with the oldest first, and the mails waiting in the outbox.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { refreshAdminStats } from '../../server/modules/dashboard';
import { AdminStatsModel } from '../../server/modules/dashboard/testing';
import { FlagModel } from '../../server/modules/flags';
import { OutboxMailModel } from '../../server/modules/mail-outbox/testing';
import { smtpMailer } from '../../server/integrations/mail';
import { post } from '../../server/modules/ledger';
import { CashOutRequestModel } from '../../server/modules/wallet';
import { createTestApp, createTestServices } from '../helpers/app';
import { freezeDate, type FrozenDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, knackBy, payListing, type TestMember, type TestPiece } from '../helpers/ledger-factory';

useTestDatabase();

const DAY = 86_400_000;
/** Noon (UTC) of the day the dashboard is read; the world starts the day before. */
const TODAY = Date.UTC(2026, 10, 27, 12);
const viewer = () => new Types.ObjectId().toHexString();

let app: ReturnType<typeof createTestApp>;
let clock: FrozenDate;
let admin: TestMember;
let ana: TestMember;
let bea: TestMember;
let paid: TestPiece;
let held: TestPiece;

beforeAll(async () => {
  app = createTestApp();
  clock = freezeDate(TODAY - DAY);
  // Yesterday: one member, one piece, its listing fee by card and one knack.
  ana = await createMember();
  paid = await payListing(await createPiece(ana, { title: 'Yesterday' }), ana, 650_000, new Date(TODAY - DAY));
  await knackBy(viewer(), paid, new Date(TODAY - DAY + 60_000));
  // Last month: a knack that this month does not count.
  await knackBy(viewer(), paid, new Date(Date.UTC(2026, 9, 31, 12)));
  clock.advance(DAY);
  // Today: two members, two pieces, a listing fee covered by a credit, two knacks, a payout.
  [admin, bea] = [await adminMember(), await createMember()];
  held = await createPiece(bea, { title: 'Today photo' });
  const song = await createPiece(bea, { title: 'Today song', type: 'music' });
  await post({
    _id: `listing:${held.id}`,
    kind: 'listing',
    at: new Date(TODAY),
    actorId: new Types.ObjectId(bea.id),
    contentId: new Types.ObjectId(held.id),
    method: 'premium-credit',
    amountMicros: 650_000,
    ref: null,
    legs: [
      { account: 'platform:credits', amountMicros: -650_000 },
      { account: 'platform:fees', amountMicros: 650_000 },
    ],
  });
  await knackBy(viewer(), paid, new Date(TODAY));
  await knackBy(viewer(), paid, new Date(TODAY + 1_000));
  await post({
    _id: `payout:${ana.id}:2026-10`,
    kind: 'payout',
    at: new Date(TODAY),
    actorId: new Types.ObjectId(ana.id),
    contentId: null,
    amountMicros: 20_000_000,
    legs: [
      { account: `user:${ana.id}`, amountMicros: -20_000_000 },
      { account: 'external:payouts', amountMicros: 19_000_000 },
      { account: 'platform:fees', amountMicros: 1_000_000 },
    ],
  });
  // Three open flags on two pieces, and one closed.
  const flag = (piece: TestPiece, by: TestMember, resolvedAt: Date | null) =>
    FlagModel.create({
      _id: `${piece.id}:${by.id}`,
      contentId: piece.id,
      userId: by.id,
      reason: 'Wrong market for content genre',
      at: new Date(),
      counts: true,
      resolvedAt,
    });
  await Promise.all([flag(held, ana, null), flag(held, admin, null), flag({ ...held, id: song.id }, ana, null), flag(paid, bea, new Date())]);
  // Two requests waiting (one for 8 days), one approved.
  const cashOut = (member: TestMember, agoMs: number, status: 'pending' | 'approved') => {
    const id = new Types.ObjectId().toHexString();
    return CashOutRequestModel.create({
      _id: id,
      userId: member.id,
      amountMicros: 12_000_000,
      status,
      slot: status === 'pending' ? `pending:${member.id}` : id,
      at: new Date(TODAY - agoMs),
    });
  };
  await Promise.all([cashOut(bea, DAY, 'pending'), cashOut(ana, 8 * DAY, 'pending'), cashOut(bea, 20 * DAY, 'approved')]);
});
afterAll(() => clock.restore());

const dashboard = (caller: TestMember) => request(app).get('/api/v2/admin/dashboard').set(bearer(caller));

const TODAY_FIGURES = { members: 2, pieces: 2, knacks: 2, listings: 1, listingFeesMicros: 0, knackValueMicros: 100_000, payouts: 1, payoutsMicros: 20_000_000 };
const MONTH_FIGURES = {
  members: 3,
  pieces: 3,
  knacks: 3,
  listings: 2,
  listingFeesMicros: 650_000,
  knackValueMicros: 150_000,
  payouts: 1,
  payoutsMicros: 20_000_000,
};

it('when the job has not run yet, then the figures are 0 with no time, and the flags and cash-outs are already there', async () => {
  const res = await dashboard(admin).expect(200);
  expect(res.body).toMatchObject({ asOf: null, today: { members: 0, knacks: 0 }, month: { members: 0, payoutsMicros: 0 } });
  expect(res.body.openFlags).toEqual({ flags: 3, pieces: 2, more: false });
});

it('when the job has counted, then today and this month show the facts of each, as of the count, with the waiting cash-outs oldest first', async () => {
  expect(await refreshAdminStats(new Date())).toEqual({ daysCounted: 27 });
  const res = await dashboard(admin).expect(200);
  expect(res.body).toEqual({
    asOf: new Date(TODAY).toISOString(),
    today: TODAY_FIGURES,
    month: MONTH_FIGURES,
    openFlags: { flags: 3, pieces: 2, more: false },
    waitingCashOuts: {
      count: 2,
      more: false,
      oldest: [
        { id: expect.any(String), userId: ana.id, amountMicros: 12_000_000, at: new Date(TODAY - 8 * DAY).toISOString(), overdue: true },
        { id: expect.any(String), userId: bea.id, amountMicros: 12_000_000, at: new Date(TODAY - DAY).toISOString(), overdue: false },
      ],
    },
    waitingMails: { count: 0, failed: 0, oldestAt: null },
    // No product events were sent in this world (tests/api/events.test.ts counts them): the week shows zeros.
    productEvents: ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'].map((day) => ({
      day,
      counts: { login: 0, signup: 0, forgot_password: 0, reset_password: 0, post_content: 0, play: 0, knack: 0, follow: 0, comment: 0 },
    })),
  });
  expect(await AdminStatsModel.findById('day:2026-11-26').lean()).toMatchObject({ members: 1, pieces: 1, knacks: 1, listingFeesMicros: 650_000 });
});

it('when the job runs again, twice at once, then it recounts only today and yesterday and writes the same figures', async () => {
  const before = await AdminStatsModel.find({}, { countedAt: 0 }).sort({ _id: 1 }).lean();
  clock.advance(60_000);
  expect(await Promise.all([refreshAdminStats(new Date()), refreshAdminStats(new Date())])).toEqual([{ daysCounted: 2 }, { daysCounted: 2 }]);
  expect(await AdminStatsModel.find({}, { countedAt: 0 }).sort({ _id: 1 }).lean()).toEqual(before);
  expect((await dashboard(admin).expect(200)).body).toMatchObject({ asOf: new Date(TODAY + 60_000).toISOString(), today: TODAY_FIGURES, month: MONTH_FIGURES });
});

it('when a knack arrives after the count, then the dashboard shows it only once the job has counted again', async () => {
  await knackBy(viewer(), paid, new Date());
  expect((await dashboard(admin).expect(200)).body.today.knacks).toBe(2);
  await refreshAdminStats(new Date());
  const res = await dashboard(admin).expect(200);
  expect([res.body.today.knacks, res.body.month.knacks, res.body.month.knackValueMicros]).toEqual([3, 4, 200_000]);
});

it('when a member asks for the dashboard, then 403 with the admins-only message', async () => {
  // A member signed in now (Ana's token of yesterday has expired).
  const res = await dashboard(await createMember()).expect(403);
  expect(res.body).toMatchObject({ code: 'forbidden', message: 'Only admins can see the dashboard.' });
});

it('when the mail server is down, then the dashboard counts the mails waiting in the outbox, with when the oldest was written, and those given up on', async () => {
  // A port nothing listens on: every attempt is refused, so each mail stays in the outbox.
  const mailServerDown = createTestServices({ mailer: smtpMailer('smtp://127.0.0.1:1', 'Knack <no-reply@knack.test>') });
  const firstAt = new Date();
  await mailServerDown.mailOutbox.mailer.send({ to: 'kept-1@example.com', subject: 'Kept', text: 'Kept', html: '<p>Kept</p>' });
  clock.advance(5 * 60_000);
  await mailServerDown.mailOutbox.mailer.send({ to: 'kept-2@example.com', subject: 'Kept', text: 'Kept', html: '<p>Kept</p>' });
  await OutboxMailModel.create({
    _id: 'given-up',
    messageId: '<given-up@knack.test>',
    to: 'gone@example.com',
    subject: 'Gone',
    state: 'failed',
    attempts: 80,
    nextAttemptAt: new Date(),
    createdAt: new Date(Date.now() - 4 * DAY),
    failedAt: new Date(Date.now() - DAY),
  });

  const res = await dashboard(admin).expect(200);
  expect(res.body.waitingMails).toEqual({ count: 2, failed: 1, oldestAt: firstAt.toISOString() });
});
