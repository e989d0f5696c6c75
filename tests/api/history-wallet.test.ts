/**
 * History, wallet figures and cash-out requests on the real database: the items and exact micro-dollar
 * figures of an owner, a supporter and a viewer, paging, who may read what (another member's history and
 * wallet are 404), the $10 minimum, one pending request whatever the concurrency, approval that pays once,
 * and the rules of cancelling. The payout account is tested in payout-account.test.ts.
 */
import { Types } from 'mongoose';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { sandboxPayoutProvider, type PayoutProvider, type PayoutRequest } from '../../server/integrations/payouts';
import { balanceOf, LedgerEntryModel, post } from '../../server/modules/ledger';
import { CashOutRequestModel, PayoutSendModel, WALLET_MESSAGES } from '../../server/modules/wallet';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, credit, knackBy, payListing, userAccount, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

const sent: PayoutRequest[] = [];
const sandbox = sandboxPayoutProvider(mkdtempSync(path.join(os.tmpdir(), 'knack-payouts-')));
/** The sandbox driver, counting what reaches it. */
const provider: PayoutProvider = { kind: 'sandbox', send: async (req) => (sent.push(req), sandbox.send(req)) };
let app: ReturnType<typeof createTestApp>;
let admin: TestMember;

const t = (minute: number) => new Date(Date.UTC(2025, 0, 10, 12, minute));
const get = (url: string, member?: TestMember) =>
  request(app)
    .get(`/api/v2${url}`)
    .set(member ? bearer(member) : {});
const postAs = (url: string, member: TestMember, body: object) => request(app).post(`/api/v2${url}`).set(bearer(member)).send(body);
const balance = (m: TestMember) => balanceOf(userAccount(m.id));

beforeAll(async () => {
  app = createTestApp({ payoutProvider: provider });
  admin = await adminMember();
});

describe('history items and wallet figures', () => {
  let ana: TestMember; // owner
  let bea: TestMember; // viewer
  let cara: TestMember; // supporter
  let sunset: Awaited<ReturnType<typeof createPiece>>;
  let tune: Awaited<ReturnType<typeof createPiece>>;

  beforeAll(async () => {
    [ana, bea, cara] = await Promise.all([createMember(), createMember(), createMember()]);
    sunset = await payListing(await createPiece(ana, { title: 'Sunset' }), cara, 650_000, t(1));
    await knackBy(bea, sunset, t(2));
    tune = await payListing(await createPiece(ana, { title: 'Tune', type: 'music' }), ana, 650_000, t(3));
    await knackBy(bea, tune, t(4));
  });

  it('when the owner reads their history, then it lists the knacks that credited them and the fee they paid, newest first, in exact micro-dollars', async () => {
    const res = await get(`/user-history/get-all/${ana.id}`, ana).expect(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items).toEqual([
      {
        historyId: `knack:${tune.id}:${bea.id}`,
        userId: ana.id,
        contentId: tune.id,
        contentTitle: 'Tune',
        activityType: 'Paid1',
        activity: `${bea.username} played Tune`,
        changes: { paid: 0.05, earned: 0.05, supporterId: ana.id, paidMicros: 50_000, earnedMicros: 50_000 },
        status: null,
        at: t(4).toISOString(),
      },
      {
        historyId: `listing:${tune.id}`,
        userId: ana.id,
        contentId: tune.id,
        contentTitle: 'Tune',
        activityType: 'Paid0',
        activity: 'You monetized Tune',
        changes: { paid: 0.65, earned: 0, supporterId: null, paidMicros: 650_000, earnedMicros: 0 },
        status: null,
        at: t(3).toISOString(),
      },
      {
        historyId: `knack:${sunset.id}:${bea.id}`,
        userId: ana.id,
        contentId: sunset.id,
        contentTitle: 'Sunset',
        activityType: 'Paid1',
        activity: `${bea.username} viewed Sunset`,
        changes: { paid: 0.05, earned: 0.045, supporterId: cara.id, paidMicros: 50_000, earnedMicros: 45_000 },
        status: null,
        at: t(2).toISOString(),
      },
    ]);
  });

  it('when the supporter reads theirs, then they see their 10% of the knack and "You supported"; the viewer has no items', async () => {
    const res = await get(`/user-history/get-all/${cara.id}`, cara).expect(200);
    expect(res.body.items.map((i: { activityType: string; activity: string; changes: unknown }) => [i.activityType, i.activity, i.changes])).toEqual([
      ['Paid1', `${bea.username} viewed Sunset`, { paid: 0.05, earned: 0.005, supporterId: cara.id, paidMicros: 50_000, earnedMicros: 5_000 }],
      ['Paid0', 'You supported Sunset', { paid: 0.65, earned: 0, supporterId: cara.id, paidMicros: 650_000, earnedMicros: 0 }],
    ]);
    const paid = await get(`/user-history/get-paid/${cara.id}`, cara).expect(200);
    expect(paid.body.items.map((i: { historyId: string }) => i.historyId)).toEqual([`listing:${sunset.id}`]);
    expect((await get(`/user-history/get-all/${bea.id}`, bea).expect(200)).body).toEqual({ items: [], nextCursor: null });
  });

  it('when the wallets are read, then uploads, collections (10% of supported fees) and total value are exact', async () => {
    const wallet = async (m: TestMember) => (await get(`/wallet/summary/${m.id}`, m).expect(200)).body;
    const [owner, supporter, viewer] = await Promise.all([wallet(ana), wallet(cara), wallet(bea)]);
    expect(owner).toMatchObject({
      balanceMicros: 95_000,
      balance: 0.095,
      uploadsMicros: 95_000,
      collectionsMicros: 0,
      totalValueMicros: 95_000,
      canCashOut: false,
      minCashOut: 10,
    });
    expect(supporter).toMatchObject({
      balanceMicros: 5_000,
      uploadsMicros: 0,
      collectionsMicros: 65_000,
      collections: 0.065,
      totalValueMicros: 65_000,
      totalValue: 0.065,
    });
    expect(viewer).toMatchObject({ balanceMicros: 0, uploadsMicros: 0, collectionsMicros: 0, paidOutMicros: 0, pendingCashOutMicros: 0, payoutAccount: null });
    expect(owner.nextPayoutAt).toMatch(/^\d{4}-\d{2}-01T00:00:00\.000Z$/);
    expect(new Date(owner.nextPayoutAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('when another member asks for a history, paid list or wallet, then it is 404; an admin reads them; no token is 401', async () => {
    for (const url of [`/user-history/get-all/${ana.id}`, `/user-history/get-paid/${ana.id}`, `/wallet/summary/${ana.id}`]) {
      expect((await get(url, bea).expect(404)).body.code).toBe('not_found');
      await get(url, admin).expect(200);
      await get(url).expect(401);
    }
    const adminView = await get(`/user-history/get-all/${ana.id}`, admin).expect(200);
    expect(adminView.body.items).toHaveLength(3);
  });
});

describe('paging', () => {
  it('when a member has 26 items, some at the same instant, then pages of 10 give each once, newest first; a bad cursor is 400', async () => {
    const owner = await createMember();
    const piece = await payListing(await createPiece(owner, { title: 'Crowd' }), owner, 650_000, t(0));
    const viewers = await Promise.all(Array.from({ length: 25 }, () => createMember()));
    // Pairs of knacks at the same minute: the id breaks the tie.
    await Promise.all(viewers.map((viewer, i) => knackBy(viewer, piece, t(10 + Math.floor(i / 2)))));

    const seen: { historyId: string; at: string }[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const res: request.Response = await get(`/user-history/get-all/${owner.id}?limit=10${cursor ? `&cursor=${cursor}` : ''}`, owner).expect(200);
      sizes.push(res.body.items.length);
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([10, 10, 6]);
    expect(new Set(seen.map((i) => i.historyId)).size).toBe(26);
    const order = seen.map((i) => [i.at, i.historyId] as const);
    const sorted = [...order].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1));
    expect(order).toEqual(sorted);
    expect(seen[25]!.historyId).toBe(`listing:${piece.id}`);

    await get(`/user-history/get-all/${owner.id}?cursor=nonsense`, owner).expect(400);
    await get(`/user-history/get-all/${owner.id}?limit=51`, owner).expect(400);
  }, 30_000);
});

describe('cash-out requests', () => {
  beforeEach(() => {
    sent.length = 0;
  });

  it('when the balance is under $10, then earn is refused with its exact message; without a PayPal email it asks for one', async () => {
    const poor = await createMember({ paypal: 'poor@example.com' });
    await credit(poor, 9_999_999);
    const res = await postAs('/user-history/earn', poor, { userId: poor.id }).expect(400);
    expect(res.body.message).toBe('You need to have a minimum balance of $10 to withdraw');

    const noAccount = await createMember();
    await credit(noAccount, 10_000_000);
    expect((await postAs('/user-history/earn', noAccount, { userId: noAccount.id }).expect(400)).body.message).toBe(
      'Add your PayPal email in payment settings first.',
    );
    await postAs('/user-history/earn', noAccount, { userId: poor.id }).expect(403);
    expect([await CashOutRequestModel.countDocuments({ userId: poor.id }), await CashOutRequestModel.countDocuments({ userId: noAccount.id })]).toEqual([0, 0]);
  });

  it('when 5 earn requests arrive at once from a $10 balance, then one pending Earn item exists and the others are 409', async () => {
    const rich = await createMember({ paypal: 'rich@example.com' });
    await credit(rich, 10_000_000);
    const answers = await Promise.all(Array.from({ length: 5 }, () => postAs('/user-history/earn', rich, { userId: rich.id })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const created = answers.find((a) => a.status === 201)!.body;
    expect(created).toEqual({
      message: WALLET_MESSAGES.requested,
      item: {
        historyId: expect.stringMatching(/^[0-9a-f]{24}$/),
        userId: rich.id,
        contentId: null,
        contentTitle: null,
        activityType: 'Earn',
        activity: 'You asked to cash out $10.00',
        changes: { paid: 10, earned: 9.8, supporterId: null, paidMicros: 10_000_000, earnedMicros: 9_800_000 },
        status: 'pending',
        at: expect.any(String),
      },
    });
    expect(answers.find((a) => a.status === 409)!.body.message).toBe(WALLET_MESSAGES.pendingExists);
    expect(await CashOutRequestModel.countDocuments({ userId: rich.id })).toBe(1);
    const history = await get(`/user-history/get-all/${rich.id}`, rich).expect(200);
    expect(history.body.items[0]).toEqual(created.item);
    expect((await get(`/wallet/summary/${rich.id}`, rich).expect(200)).body).toMatchObject({
      pendingCashOutMicros: 10_000_000,
      pendingCashOut: 10,
      canCashOut: true,
    });
  });

  it('when an admin approves twice at once, then the member is paid once, the fee is exact and the balance is 0', async () => {
    const member = await createMember({ paypal: 'payme@example.com' });
    await credit(member, 10_000_000);
    const { historyId } = (await postAs('/user-history/earn', member, { userId: member.id }).expect(201)).body.item;
    await postAs('/user-history/approve', member, { historyId }).expect(403);

    const [a, b] = await Promise.all([postAs('/user-history/approve', admin, { historyId }), postAs('/user-history/approve', admin, { historyId })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const answer of [a, b]) {
      expect(answer.body).toMatchObject({
        message: WALLET_MESSAGES.approved,
        item: { historyId, activityType: 'Earn', status: 'approved', changes: { paidMicros: 10_000_000, earnedMicros: 9_800_000 } },
      });
    }
    expect(sent).toEqual([{ payoutId: `cash-out:${historyId}`, email: 'payme@example.com', amountMicros: 9_800_000, note: 'Your Knack cash-out' }]);
    const entries = await LedgerEntryModel.find({ kind: 'cash-out', actorId: member.id }).lean();
    expect(entries).toHaveLength(1);
    expect(entries[0]!._id).toBe(`cash-out:${historyId}`);
    expect(entries[0]!.legs).toEqual([
      { account: userAccount(member.id), amountMicros: -10_000_000 },
      { account: 'external:payouts', amountMicros: 9_800_000 },
      { account: 'platform:fees', amountMicros: 200_000 },
    ]);
    expect(await balance(member)).toBe(0);
    const send = await PayoutSendModel.findById(`cash-out:${historyId}`).lean();
    expect(send).toMatchObject({ status: 'sent', amountMicros: 10_000_000, feeMicros: 200_000, sentMicros: 9_800_000, attempts: 1 });
    expect(send!.providerRef).toMatch(/^SANDBOX-/);
    expect((await get(`/wallet/summary/${member.id}`, member).expect(200)).body).toMatchObject({
      balanceMicros: 0,
      paidOutMicros: 10_000_000,
      paidOut: 10,
      pendingCashOutMicros: 0,
    });

    // Approving again pays nothing more; a new request can be made (none is pending).
    await postAs('/user-history/approve', admin, { historyId }).expect(200);
    expect(sent).toHaveLength(1);
    await postAs('/user-history/cancel', admin, { historyId }).expect(409);
  });

  it('when the balance has sub-cent micro-dollars, then the request is for whole cents and the rest stays', async () => {
    const member = await createMember({ paypal: 'cents@example.com' });
    await credit(member, 123_456_789);
    const { item } = (await postAs('/user-history/earn', member, { userId: member.id }).expect(201)).body;
    expect(item.changes).toMatchObject({ paidMicros: 123_450_000, earnedMicros: 122_450_000 }); // fee capped at $1
    await postAs('/user-history/approve', admin, { historyId: item.historyId }).expect(200);
    expect(await balance(member)).toBe(6_789);
    expect(sent[0]!.amountMicros).toBe(122_450_000);
  });

  it('when requests are cancelled, then only pending ones change, by their member or an admin; others get 404 and decided ones 409', async () => {
    const [member, other] = await Promise.all([createMember({ paypal: 'c1@example.com' }), createMember()]);
    await credit(member, 20_000_000);
    const first = (await postAs('/user-history/earn', member, { userId: member.id }).expect(201)).body.item.historyId;
    await postAs('/user-history/cancel', other, { historyId: first }).expect(404);
    const cancelled = await postAs('/user-history/cancel', member, { historyId: first }).expect(200);
    expect(cancelled.body).toMatchObject({
      message: WALLET_MESSAGES.cancelled,
      item: { historyId: first, status: 'cancelled', activity: 'Your cash-out of $20.00 was cancelled' },
    });
    expect((await postAs('/user-history/cancel', member, { historyId: first }).expect(409)).body.message).toBe(WALLET_MESSAGES.decided);
    await postAs('/user-history/approve', admin, { historyId: first }).expect(409);

    // The slot is free again; an admin may cancel the next one.
    const second = (await postAs('/user-history/earn', member, { userId: member.id }).expect(201)).body.item.historyId;
    await postAs('/user-history/cancel', admin, { historyId: second }).expect(200);
    await postAs('/user-history/cancel', admin, { historyId: '0123456789abcdef01234567' }).expect(404);
    expect(sent).toHaveLength(0);
    expect(await balance(member)).toBe(20_000_000);
    const items = (await get(`/user-history/get-all/${member.id}`, member).expect(200)).body.items.filter(
      (i: { activityType: string }) => i.activityType === 'Earn',
    );
    expect(items.map((i: { status: string }) => i.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('when the balance no longer covers a pending request at approval, then it is 409 and nothing moves', async () => {
    const member = await createMember({ paypal: 'gone@example.com' });
    await credit(member, 10_000_000);
    const { historyId } = (await postAs('/user-history/earn', member, { userId: member.id }).expect(201)).body.item;
    // Its balance went elsewhere meanwhile (a payout of another kind).
    await post({
      _id: `payout:${member.id}:2024-12`,
      kind: 'payout',
      at: new Date(),
      actorId: new Types.ObjectId(member.id),
      contentId: null,
      legs: [
        { account: userAccount(member.id), amountMicros: -5_000_000 },
        { account: 'external:payouts', amountMicros: 5_000_000 },
      ],
    });
    expect((await postAs('/user-history/approve', admin, { historyId }).expect(409)).body.message).toBe(WALLET_MESSAGES.notCovered);
    expect(sent).toHaveLength(0);
    expect(await balance(member)).toBe(5_000_000);
  });
});
