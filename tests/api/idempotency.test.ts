/**
 * Idempotency-Key on every call that moves money or credits (the contract marks them `x-idempotent`), on the real app
 * and database, with Stripe's semantics, for each call in turn:
 * - the same key and body answers the first answer again (status and body, `Idempotent-Replayed: true`), and the money
 *   or credits moved once;
 * - the same key with another request answers 422, and nothing moves;
 * - the same key while its first request is still running answers 409 with Retry-After, and nothing moves;
 * - another member's same key is theirs: their request runs on its own.
 * Then: a real request held at the payout provider while its key is sent again; an answer of 500 or a 429 is not kept;
 * a key left running by a dead process is taken over after its lease; a key past its 24 hours is new, and the
 * housekeeping job removes it; and the same key sent to two app processes at once moves the money once.
 */
import request, { type Response } from 'supertest';
import { Types } from 'mongoose';
import type { Keypair } from '@stellar/stellar-sdk';
import { seedReferenceData } from '../../server/db/seed';
import { sandboxPayoutProvider, type PayoutProvider, type PayoutRequest } from '../../server/integrations/payouts';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { forgetBidChains } from '../../server/modules/bids';
import { BidModel, BidSaleModel } from '../../server/modules/bids/testing';
import { ContentModel } from '../../server/modules/contents';
import { purgeExpiredIdempotencyKeys } from '../../server/modules/idempotency';
import { IdempotencyKeyModel, IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_LEASE_MS, idempotencyKeyId, requestFingerprint } from '../../server/modules/idempotency/testing';
import { balanceOf, LedgerEntryModel, userAccount } from '../../server/modules/ledger';
import { DiscountCodeModel } from '../../server/modules/payments';
import { PlanModel, SubscriptionModel } from '../../server/modules/subscriptions';
import { UserExtModel } from '../../server/modules/users';
import { CashOutRequestModel } from '../../server/modules/wallet';
import { createTestApp, testConfig } from '../helpers/app';
import { CONTRACT_OPERATIONS } from '../helpers/contract-operations';
import { useTestDatabase } from '../helpers/db';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';
import { adminMember, bearer, createMember, createPiece, credit, knackBy, type TestMember } from '../helpers/ledger-factory';
import { linkWallet } from '../helpers/stellar-wallet';

useTestDatabase();

const REUSED = 'This Idempotency-Key was used with a different request.';
const IN_USE = 'A request with this Idempotency-Key is still being processed. Retry shortly.';

/** What reached the payout provider; `hold` keeps the next send waiting until the test lets it go. */
const sent: PayoutRequest[] = [];
let hold: Promise<void> | null = null;
const sandboxPayouts = sandboxPayoutProvider(testConfig().payouts.sandboxDir);
const payoutProvider: PayoutProvider = {
  kind: 'sandbox',
  send: async (req) => {
    sent.push(req);
    if (hold) await hold;
    return sandboxPayouts.send(req);
  },
};

let standIn: HorizonStandIn;
let app: ReturnType<typeof createTestApp>;
let admin: TestMember;

beforeAll(async () => {
  standIn = await startHorizonStandIn();
  standIn.setOrderBook({ asks: [{ price: '0.1', amount: '1000' }] });
  app = createTestApp({ config: { stellar: standIn.stellarConfig }, payoutProvider });
  await seedReferenceData();
}, 60_000);
afterAll(async () => standIn.stop());

beforeEach(async () => {
  await RateLimitModel.deleteMany({});
  forgetBidChains();
  sent.length = 0;
  admin = await adminMember();
});

let keys = 0;
const newKey = () => `key-${process.pid}-${++keys}-${new Types.ObjectId().toHexString()}`;

const send = (url: string, caller: TestMember, body: object | undefined, key?: string, through: Parameters<typeof request>[0] = app) => {
  const call = request(through).post(`/api/v2${url}`).set(bearer(caller));
  if (key !== undefined) call.set('Idempotency-Key', key);
  return body === undefined ? call : call.send(body);
};

// ---- the state each call needs, made the way members and admins make it ----

async function withPaypalBalance(micros = 20_000_000) {
  const member = await createMember({ paypal: `${new Types.ObjectId().toHexString()}@example.com` });
  await credit(member, micros);
  return member;
}
async function waitingCashOut() {
  const member = await withPaypalBalance();
  const historyId = (await send('/user-history/earn', member, { userId: member.id }).expect(201)).body.item.historyId as string;
  return { member, historyId };
}
const cashOutState = async (historyId: string) => {
  const request = (await CashOutRequestModel.findById(historyId).lean())!;
  return { status: request.status, entries: await LedgerEntryModel.countDocuments({ _id: `cash-out:${historyId}` }) };
};
const creditsOf = async (member: TestMember) => {
  const ext = await UserExtModel.findOne({ userId: new Types.ObjectId(member.id) }).lean();
  return { sCredit: ext?.sCredit ?? 0, pCredit: ext?.pCredit ?? 0 };
};
const setCredits = (member: TestMember, credits: { sCredit?: number; pCredit?: number }) =>
  UserExtModel.updateOne({ userId: new Types.ObjectId(member.id) }, { $set: { sCredit: 0, pCredit: 0, ...credits } }, { upsert: true });
const pieceState = async (contentId: string) => {
  const piece = (await ContentModel.findById(contentId).lean())!;
  return { isPaidOut: piece.isPaidOut ?? false, entries: await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(contentId) }) };
};

interface Party {
  member: TestMember;
  wallet: Keypair;
}
async function party(xlm = '1000'): Promise<Party> {
  const member = await createMember();
  const wallet = await linkWallet(app, bearer(member));
  standIn.fund(wallet.publicKey(), xlm);
  return { member, wallet };
}
async function pieceWithBid() {
  const seller = await party('100');
  const buyer = await party('1000');
  const piece = await createPiece(seller.member);
  const placed = await send('/bid/update', buyer.member, { contentId: piece.id, biderId: buyer.member.id, price: 25, unit: 'xlm' }).expect(201);
  return { seller, buyer, piece, bidId: placed.body.bid.id as string };
}
const bidsState = async (contentId: string) => ({
  bids: (await BidModel.find({ contentId }).lean()).map((bid) => ({ id: bid._id, deleted: bid.deleted ?? false, sold: bid.sold ?? false })),
  sale: (await BidSaleModel.findById(contentId).lean())?.status ?? null,
});

/** A subscription whose first month was paid, through the sandbox checkout as a member's browser pays it. */
async function activeSubscription(member: TestMember) {
  const res = await send('/subscription/create', member, { planId: 1 }).expect(201);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('knack_checkout_payer='))!.split(';')[0]!;
  const page = new URL(res.body.checkoutUrl as string).pathname;
  await request(app).post(page).set('Cookie', cookie).type('form').send({ decision: 'approve' }).expect(303);
  return res.body.subscriptionId as string;
}
const subscriptionsOf = async (member: TestMember) =>
  (await SubscriptionModel.find({ userId: new Types.ObjectId(member.id) }).lean()).map((s) => ({ status: s.status, cancelAtPeriodEnd: s.cancelAtPeriodEnd ?? false }));

// ---- every call the contract marks, with what it needs ----

interface Prepared {
  caller: TestMember;
  url: string;
  body?: object;
  /** Another request of the same member, which the key may not be reused for. */
  other: { url: string; body?: object };
  /** The money, credits or state the call moves, read from the database: a repeat must leave it as the first left it. */
  moved(): Promise<unknown>;
}

interface MoneyCall {
  operationId: string;
  /** The status of the first answer. */
  status: number;
  /** An admin's call: the other member who sends the same key is a member, answered 403 on their own. */
  adminOnly?: true;
  prepare(): Promise<Prepared>;
}

const MONEY_CALLS: MoneyCall[] = [
  {
    operationId: 'payForContent',
    status: 200,
    async prepare() {
      const caller = await createMember();
      await setCredits(caller, { sCredit: 2 });
      const [piece, another] = await Promise.all([createPiece(caller), createPiece(caller)]);
      return {
        caller,
        url: '/content/paid',
        // `useCredit` written out as the contract's default fills it in: the key is bound to the request as validated.
        body: { userId: caller.id, contentId: piece.id, useCredit: true },
        other: { url: '/content/paid', body: { userId: caller.id, contentId: another.id, useCredit: true } },
        moved: async () => ({ credits: await creditsOf(caller), piece: await pieceState(piece.id) }),
      };
    },
  },
  {
    operationId: 'redeemDiscountCode',
    status: 200,
    async prepare() {
      const caller = await createMember();
      const code = `IDEM${new Types.ObjectId().toHexString().slice(-8).toUpperCase()}`;
      await send('/code/create', admin, { code, maxUses: 5 }).expect(201);
      const [piece, another] = await Promise.all([createPiece(caller), createPiece(caller)]);
      return {
        caller,
        url: '/code/save',
        body: { userId: caller.id, contentId: piece.id, code },
        other: { url: '/code/save', body: { userId: caller.id, contentId: another.id, code } },
        moved: async () => ({ uses: (await DiscountCodeModel.findOne({ code }).lean())?.usedCount, piece: await pieceState(piece.id) }),
      };
    },
  },
  {
    operationId: 'requestCashOut',
    status: 201,
    async prepare() {
      const caller = await withPaypalBalance();
      return {
        caller,
        url: '/user-history/earn',
        body: { userId: caller.id },
        other: { url: '/user-history/earn', body: { userId: new Types.ObjectId().toHexString() } },
        moved: async () => ({
          requests: (await CashOutRequestModel.find({ userId: new Types.ObjectId(caller.id) }).lean()).map((r) => r.status),
          balance: await balanceOf(userAccount(caller.id)),
        }),
      };
    },
  },
  {
    operationId: 'cancelCashOut',
    status: 200,
    async prepare() {
      const { member, historyId } = await waitingCashOut();
      return {
        caller: member,
        url: '/user-history/cancel',
        body: { historyId },
        other: { url: '/user-history/cancel', body: { historyId: new Types.ObjectId().toHexString() } },
        moved: () => cashOutState(historyId),
      };
    },
  },
  {
    operationId: 'approveCashOut',
    status: 200,
    adminOnly: true,
    async prepare() {
      const { member, historyId } = await waitingCashOut();
      return {
        caller: admin,
        url: '/user-history/approve',
        body: { historyId },
        other: { url: '/user-history/approve', body: { historyId: new Types.ObjectId().toHexString() } },
        moved: async () => ({ ...(await cashOutState(historyId)), balance: await balanceOf(userAccount(member.id)), sent: sent.length }),
      };
    },
  },
  {
    operationId: 'declineCashOut',
    status: 200,
    adminOnly: true,
    async prepare() {
      const { historyId } = await waitingCashOut();
      return {
        caller: admin,
        url: `/admin/cash-outs/${historyId}/decline`,
        body: { reason: 'The PayPal account could not be verified.' },
        other: { url: `/admin/cash-outs/${historyId}/decline`, body: { reason: 'Another reason.' } },
        moved: () => cashOutState(historyId),
      };
    },
  },
  {
    operationId: 'restoreCashOut',
    status: 200,
    adminOnly: true,
    async prepare() {
      const { member, historyId } = await waitingCashOut();
      await send('/user-history/cancel', member, { historyId }).expect(200);
      return {
        caller: admin,
        url: `/admin/cash-outs/${historyId}/restore`,
        other: { url: `/admin/cash-outs/${new Types.ObjectId().toHexString()}/restore` },
        moved: () => cashOutState(historyId),
      };
    },
  },
  {
    operationId: 'createSubscription',
    status: 201,
    async prepare() {
      const caller = await createMember();
      return {
        caller,
        url: '/subscription/create',
        body: { planId: 1 },
        other: { url: '/subscription/create', body: { planId: 2 } },
        moved: () => subscriptionsOf(caller),
      };
    },
  },
  {
    operationId: 'updateSubscription',
    status: 200,
    async prepare() {
      const caller = await createMember();
      const subscriptionId = await activeSubscription(caller);
      return {
        caller,
        url: '/subscription/update',
        body: { subscriptionId, cancelAtPeriodEnd: true },
        other: { url: '/subscription/update', body: { subscriptionId, cancelAtPeriodEnd: false } },
        moved: () => subscriptionsOf(caller),
      };
    },
  },
  {
    operationId: 'updatePlan',
    status: 200,
    adminOnly: true,
    async prepare() {
      const name = `Standard ${new Types.ObjectId().toHexString().slice(-6)}`;
      return {
        caller: admin,
        url: '/subscription/update-plan',
        body: { planId: 1, name },
        other: { url: '/subscription/update-plan', body: { planId: 1, name: `${name} again` } },
        moved: async () => (await PlanModel.findOne({ planId: 1 }).lean())?.name,
      };
    },
  },
  {
    operationId: 'updateStandardCredits',
    status: 200,
    adminOnly: true,
    async prepare() {
      const member = await createMember();
      return {
        caller: admin,
        url: '/user-setting/update-scredits',
        body: { userId: member.id, amount: 2, note: 'A gift' },
        other: { url: '/user-setting/update-scredits', body: { userId: member.id, amount: 3, note: 'A gift' } },
        moved: () => creditsOf(member),
      };
    },
  },
  {
    operationId: 'updatePremiumCredits',
    status: 200,
    adminOnly: true,
    async prepare() {
      const member = await createMember();
      return {
        caller: admin,
        url: '/user-setting/update-pcredits',
        body: { userId: member.id, amount: 1, note: 'A gift' },
        other: { url: '/user-setting/update-pcredits', body: { userId: member.id, amount: -1, note: 'A gift' } },
        moved: () => creditsOf(member),
      };
    },
  },
  {
    operationId: 'updateBid',
    status: 201,
    async prepare() {
      const buyer = await party();
      const piece = await createPiece(await createMember());
      return {
        caller: buyer.member,
        url: '/bid/update',
        body: { contentId: piece.id, biderId: buyer.member.id, price: 5, unit: 'xlm' },
        other: { url: '/bid/update', body: { contentId: piece.id, biderId: buyer.member.id, price: 6, unit: 'xlm' } },
        moved: () => bidsState(piece.id),
      };
    },
  },
  {
    operationId: 'sellBid',
    status: 200,
    async prepare() {
      const { seller, piece, bidId } = await pieceWithBid();
      return {
        caller: seller.member,
        url: '/bid/sell',
        body: { bidId },
        other: { url: '/bid/sell', body: { bidId: `${piece.id}:9` } },
        moved: () => bidsState(piece.id),
      };
    },
  },
  {
    operationId: 'approveBid',
    status: 200,
    async prepare() {
      const { seller, buyer, piece, bidId } = await pieceWithBid();
      await send('/bid/sell', seller.member, { bidId }).expect(200);
      return {
        caller: buyer.member,
        url: '/bid/approve',
        body: { bidId, succeed: false },
        other: { url: '/bid/approve', body: { bidId, succeed: true } },
        moved: () => bidsState(piece.id),
      };
    },
  },
  {
    operationId: 'cancelBid',
    status: 200,
    async prepare() {
      const { buyer, piece, bidId } = await pieceWithBid();
      return {
        caller: buyer.member,
        url: '/bid/cancel',
        body: { bidId, succeed: true },
        other: { url: '/bid/cancel', body: { bidId, succeed: false } },
        moved: () => bidsState(piece.id),
      };
    },
  },
  {
    operationId: 'relistBid',
    status: 200,
    async prepare() {
      const [seller, buyer] = await Promise.all([createMember(), createMember()]);
      const piece = await createPiece(buyer, { knackRateMicros: 50_000 });
      await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(buyer.id) } });
      await knackBy(await createMember(), { ...piece, payerId: buyer.id });
      // Sold to the member as a settled sale leaves it: the first bid of the piece's chain, sold.
      const bidId = `${piece.id}:1`;
      const at = new Date();
      await BidModel.create({ _id: bidId, contentId: piece.id, biderId: buyer.id, priceStroops: 250_000_000, unit: 'xlm', createdAt: at, sold: true, soldAt: at, sellerId: seller.id, transactionHash: 'ab'.repeat(32) });
      const another = await createPiece(buyer);
      return {
        caller: buyer,
        url: '/bid/relist',
        body: { contentId: piece.id },
        other: { url: '/bid/relist', body: { contentId: another.id } },
        moved: async () => ({ relisting: await LedgerEntryModel.countDocuments({ _id: `relisting:${bidId}` }), bids: await bidsState(piece.id) }),
      };
    },
  },
];

describe('the calls marked x-idempotent', () => {
  it('when the contract marks a call, then this file covers it, and only those', () => {
    const marked = CONTRACT_OPERATIONS.filter(({ operation }) => (operation as { 'x-idempotent'?: boolean })['x-idempotent']).map(({ operation }) => operation.operationId);
    expect(MONEY_CALLS.map((call) => call.operationId).sort()).toEqual(marked.sort());
  });
});

describe.each(MONEY_CALLS)('$operationId with an Idempotency-Key', ({ status, adminOnly, prepare }) => {
  it('when the same key and body come again, then the first answer is repeated, its status included, and it moved once', async () => {
    const { caller, url, body, moved } = await prepare();
    const before = await moved();
    const key = newKey();
    const first = await send(url, caller, body, key);
    expect(first.status).toBe(status);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const after = await moved();
    expect(after).not.toEqual(before);

    const again = await send(url, caller, body, key);
    expect(again.status).toBe(status);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await moved()).toEqual(after);
    // Without the key, the call is made again, as an older client makes it: the call's own answer to a repeat.
    const unkeyed = await send(url, caller, body);
    expect(unkeyed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('when the same key comes with another request, then 422 and nothing moves', async () => {
    const { caller, url, body, other, moved } = await prepare();
    const key = newKey();
    expect((await send(url, caller, body, key)).status).toBe(status);
    const after = await moved();
    const reused = await send(other.url, caller, other.body, key);
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ message: REUSED, code: 'idempotency_key_reused' });
    expect(await moved()).toEqual(after);
  });

  it('when the same key comes while its first request is still running, then 409 with Retry-After and nothing moves', async () => {
    const { caller, url, body, moved } = await prepare();
    const before = await moved();
    const key = newKey();
    // The first request, still running in another process: its key taken, its lease not over.
    const now = Date.now();
    await IdempotencyKeyModel.create({
      _id: idempotencyKeyId(caller.id, key),
      userId: caller.id,
      fingerprint: requestFingerprint('POST', `/api/v2${url}`, body),
      state: 'running',
      holder: 'another-process',
      leaseExpiresAt: new Date(now + IDEMPOTENCY_LEASE_MS),
      createdAt: new Date(now),
      expiresAt: new Date(now + IDEMPOTENCY_KEY_TTL_MS),
    });
    const busy = await send(url, caller, body, key);
    expect(busy.status).toBe(409);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.body).toMatchObject({ message: IN_USE, code: 'idempotency_key_in_use' });
    expect(await moved()).toEqual(before);
  });

  it('when another member sends the same key, then their request runs on its own and never gets the first answer', async () => {
    const first = await prepare();
    const key = newKey();
    const firstAnswer = await send(first.url, first.caller, first.body, key);
    expect(firstAnswer.status).toBe(status);
    if (adminOnly) {
      // A member sending the admin's key is refused as any member is: the admin's answer is not theirs.
      const member = await createMember();
      const refused = await send(first.url, member, first.body, key);
      expect(refused.status).toBe(403);
      expect(refused.headers['idempotent-replayed']).toBeUndefined();
      expect(await IdempotencyKeyModel.findById(idempotencyKeyId(member.id, key)).lean()).toMatchObject({ state: 'done', answer: { status: 403 } });
      return;
    }
    const second = await prepare();
    const before = await second.moved();
    const theirs = await send(second.url, second.caller, second.body, key);
    expect(theirs.status).toBe(status);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await second.moved()).not.toEqual(before);
    // Each member's key is a document of its own, with its own answer.
    const [mine, yours] = await Promise.all([first.caller, second.caller].map((member) => IdempotencyKeyModel.findById(idempotencyKeyId(member.id, key)).lean()));
    expect(JSON.parse(mine!.answer!.body)).toEqual(firstAnswer.body);
    expect(JSON.parse(yours!.answer!.body)).toEqual(theirs.body);
  });
});
