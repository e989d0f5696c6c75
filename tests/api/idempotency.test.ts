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
import {
  IdempotencyKeyModel,
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENCY_LEASE_MS,
  idempotencyKeyId,
  requestFingerprint,
} from '../../server/modules/idempotency/testing';
import { balanceOf, LedgerEntryModel, userAccount } from '../../server/modules/ledger';
import { DiscountUseModel } from '../../server/modules/payments';
import { PlanModel, SubscriptionModel } from '../../server/modules/subscriptions';
import { UserExtModel } from '../../server/modules/users';
import { CashOutRequestModel } from '../../server/modules/wallet';
import { createTestApp, testConfig } from '../helpers/app';
import { CONTRACT_OPERATIONS } from '../helpers/contract-operations';
import { useTestDatabase } from '../helpers/db';
import { startSecondApp, type SecondApp } from '../helpers/second-process';
import { waitUntil } from '../helpers/wait';
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
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('knack_checkout_payer='))!
    .split(';')[0]!;
  const page = new URL(res.body.checkoutUrl as string).pathname;
  await request(app).post(page).set('Cookie', cookie).type('form').send({ decision: 'approve' }).expect(303);
  return res.body.subscriptionId as string;
}
const subscriptionsOf = async (member: TestMember) =>
  (await SubscriptionModel.find({ userId: new Types.ObjectId(member.id) }).lean()).map((s) => ({
    status: s.status,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd ?? false,
  }));

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
  /** Its answer sets the checkout's payer cookie. */
  setsCookie?: true;
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
        moved: async () => ({ uses: await DiscountUseModel.countDocuments({ code }), piece: await pieceState(piece.id) }),
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
    setsCookie: true,
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
      await BidModel.create({
        _id: bidId,
        contentId: piece.id,
        biderId: buyer.id,
        priceStroops: 250_000_000,
        unit: 'xlm',
        createdAt: at,
        sold: true,
        soldAt: at,
        sellerId: seller.id,
        transactionHash: 'ab'.repeat(32),
      });
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
    const marked = CONTRACT_OPERATIONS.filter(({ operation }) => (operation as { 'x-idempotent'?: boolean })['x-idempotent']).map(
      ({ operation }) => operation.operationId,
    );
    expect(MONEY_CALLS.map((call) => call.operationId).sort()).toEqual(marked.sort());
  });
});

describe.each(MONEY_CALLS)('$operationId with an Idempotency-Key', ({ status, adminOnly, setsCookie, prepare }) => {
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
    if (setsCookie) expect(first.headers['set-cookie']).toEqual([expect.stringMatching(/^knack_checkout_payer=/)]);
    // A checkout's payer cookie comes again too: the browser whose first answer was lost can still open the checkout.
    expect(again.headers['set-cookie']).toEqual(first.headers['set-cookie']);
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
    const [mine, yours] = await Promise.all(
      [first.caller, second.caller].map((member) => IdempotencyKeyModel.findById(idempotencyKeyId(member.id, key)).lean()),
    );
    expect(JSON.parse(mine!.answer!.body)).toEqual(firstAnswer.body);
    expect(JSON.parse(yours!.answer!.body)).toEqual(theirs.body);
  });
});

describe('a request still running, for real', () => {
  it('when an approval is held at the payout provider and its key comes again, then 409 until it answers, then its answer, and one payout', async () => {
    const { member, historyId } = await waitingCashOut();
    const key = newKey();
    let letGo!: () => void;
    hold = new Promise((resolve) => (letGo = resolve));
    try {
      const first = send('/user-history/approve', admin, { historyId }, key).then((res) => res);
      await waitUntil(() => sent.length === 1, { what: 'the payout reaching the provider' });
      const busy = await send('/user-history/approve', admin, { historyId }, key);
      expect(busy.status).toBe(409);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.body).toMatchObject({ message: IN_USE, code: 'idempotency_key_in_use' });
      letGo();
      const answered = await first;
      expect(answered.status).toBe(200);
      const again = await send('/user-history/approve', admin, { historyId }, key).expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(answered.body);
    } finally {
      hold = null;
      letGo();
    }
    expect(sent).toHaveLength(1);
    expect(await cashOutState(historyId)).toEqual({ status: 'approved', entries: 1 });
    expect(await balanceOf(userAccount(member.id))).toBe(0);
  });
});

describe('a client that hung up', () => {
  it('when the client gives up while an approval is held, then the approval still ends, once, and the retry gets its answer', async () => {
    const { historyId } = await waitingCashOut();
    const key = newKey();
    let letGo!: () => void;
    hold = new Promise((resolve) => (letGo = resolve));
    try {
      const first = send('/user-history/approve', admin, { historyId }, key)
        .timeout(500)
        .then(
          () => 'answered',
          (err: Error) => err.message,
        );
      await waitUntil(() => sent.length === 1, { what: 'the payout reaching the provider' });
      expect(await first).toMatch(/Timeout/);
      expect((await send('/user-history/approve', admin, { historyId }, key)).status).toBe(409);
      letGo();
      await waitUntil(async () => (await IdempotencyKeyModel.findById(idempotencyKeyId(admin.id, key)).lean())?.state === 'done', {
        what: 'the approval’s answer stored',
      });
    } finally {
      hold = null;
      letGo();
    }
    const retried = await send('/user-history/approve', admin, { historyId }, key).expect(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body.item).toMatchObject({ historyId, status: 'approved' });
    expect(sent).toHaveLength(1);
    expect(await cashOutState(historyId)).toEqual({ status: 'approved', entries: 1 });
  });
});

describe('answers that are not kept', () => {
  it('when the call fails on our side (5xx), then the key is given up and the same key may try again', async () => {
    const buyer = await party();
    const piece = await createPiece(await createMember());
    const body = { contentId: piece.id, biderId: buyer.member.id, price: 5, unit: 'xlm' };
    const key = newKey();
    standIn.failNext(500);
    const failed = await send('/bid/update', buyer.member, body, key);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await IdempotencyKeyModel.findById(idempotencyKeyId(buyer.member.id, key)).lean()).toBeNull();

    const retried = await send('/bid/update', buyer.member, body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect((await bidsState(piece.id)).bids).toHaveLength(1);
  });

  it('when the call answers 429, then the key is given up: the same action is sent again under it once the wait is over', async () => {
    const caller = await createMember();
    const key = newKey();
    // Subscribing is limited to 20 an hour: the member has used them all.
    for (let i = 0; i < 20; i++) await send('/subscription/create', caller, { planId: 1 }).expect(201);
    const limited = await send('/subscription/create', caller, { planId: 1 }, key);
    expect(limited.status).toBe(429);
    expect(await IdempotencyKeyModel.findById(idempotencyKeyId(caller.id, key)).lean()).toBeNull();
    await RateLimitModel.deleteMany({});
    const retried = await send('/subscription/create', caller, { planId: 1 }, key);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('when the call refuses (4xx), then the refusal is kept and repeated, as Stripe does', async () => {
    const caller = await createMember(); // no balance
    const key = newKey();
    const refused = await send('/user-history/earn', caller, { userId: caller.id }, key);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('You need to have a minimum balance of $10 to withdraw');
    await credit(caller, 20_000_000);
    const again = await send('/user-history/earn', caller, { userId: caller.id }, key);
    expect(again.status).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(refused.body);
    expect(await CashOutRequestModel.countDocuments({ userId: new Types.ObjectId(caller.id) })).toBe(0);
  });

  it('when the request fails the contract (a key over 255 characters), then 400 and no key is taken', async () => {
    const caller = await withPaypalBalance();
    const res = await send('/user-history/earn', caller, { userId: caller.id }, 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(await IdempotencyKeyModel.countDocuments({ userId: caller.id })).toBe(0);
    expect(await CashOutRequestModel.countDocuments({ userId: new Types.ObjectId(caller.id) })).toBe(0);
  });

  it('when a refused token sends a key, then 401 as without one, and no key is taken', async () => {
    const caller = await withPaypalBalance();
    const res = await request(app)
      .post('/api/v2/user-history/earn')
      .set({ Authorization: 'Bearer not-a-token', 'Idempotency-Key': newKey() })
      .send({ userId: caller.id });
    expect(res.status).toBe(401);
    expect(await IdempotencyKeyModel.countDocuments({ userId: caller.id })).toBe(0);
  });

  it('when a visitor sends a key, then 401 as without one, and no key is taken', async () => {
    const res = await request(app).post('/api/v2/user-history/earn').set('Idempotency-Key', newKey()).send({ userId: new Types.ObjectId().toHexString() });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Please log in.');
  });
});

describe('keys left behind', () => {
  const runningKey = (caller: TestMember, key: string, url: string, body: object, leaseEndsIn: number) => {
    const now = Date.now();
    return IdempotencyKeyModel.create({
      _id: idempotencyKeyId(caller.id, key),
      userId: caller.id,
      fingerprint: requestFingerprint('POST', `/api/v2${url}`, body),
      state: 'running',
      holder: 'a-process-that-died',
      leaseExpiresAt: new Date(now + leaseEndsIn),
      createdAt: new Date(now - 5 * 60_000),
      expiresAt: new Date(now + IDEMPOTENCY_KEY_TTL_MS),
    });
  };

  it('when the process running a request died, then after its lease the same key takes it over and the call is done once', async () => {
    const admin2 = admin;
    const member = await createMember();
    const body = { userId: member.id, amount: 2, note: 'A gift' };
    const key = newKey();
    await runningKey(admin2, key, '/user-setting/update-scredits', body, -1);
    const taken = await send('/user-setting/update-scredits', admin2, body, key);
    expect(taken.status).toBe(200);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    expect(await creditsOf(member)).toEqual({ sCredit: 2, pCredit: 0 });
    const again = await send('/user-setting/update-scredits', admin2, body, key).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await creditsOf(member)).toEqual({ sCredit: 2, pCredit: 0 });
  });

  it('when the process died after the credits moved but before its answer was stored, then the retry takes the key over and moves nothing more', async () => {
    const member = await createMember();
    const body = { userId: member.id, amount: 2, note: 'A gift' };
    const key = newKey();
    await send('/user-setting/update-scredits', admin, body, key).expect(200);
    // As a process that died between the movement and the stored answer leaves the key: running, its lease over.
    await IdempotencyKeyModel.updateOne(
      { _id: idempotencyKeyId(admin.id, key) },
      { $set: { state: 'running', holder: 'a-process-that-died', leaseExpiresAt: new Date(Date.now() - 1), answer: null } },
    );
    const retried = await send('/user-setting/update-scredits', admin, body, key);
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.body).toEqual({ credits: { sCredit: 2, pCredit: 0 } });
    expect(await creditsOf(member)).toEqual({ sCredit: 2, pCredit: 0 });
  });

  it('when a key is past its 24 hours, then it is new again (even for another request), and the housekeeping job removes it', async () => {
    const caller = await withPaypalBalance();
    const key = newKey();
    const old = Date.now() - IDEMPOTENCY_KEY_TTL_MS - 60_000;
    await IdempotencyKeyModel.create({
      _id: idempotencyKeyId(caller.id, key),
      userId: caller.id,
      fingerprint: requestFingerprint('POST', '/api/v2/subscription/create', { planId: 2 }),
      state: 'done',
      holder: 'an-earlier-process',
      leaseExpiresAt: new Date(old + IDEMPOTENCY_LEASE_MS),
      createdAt: new Date(old),
      expiresAt: new Date(old + IDEMPOTENCY_KEY_TTL_MS),
      answer: { status: 201, headers: {}, body: '{"old":true}' },
    });
    const fresh = await send('/user-history/earn', caller, { userId: caller.id }, key);
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();

    const expired = newKey();
    await IdempotencyKeyModel.create({
      _id: idempotencyKeyId(caller.id, expired),
      userId: caller.id,
      fingerprint: 'f',
      state: 'done',
      holder: 'an-earlier-process',
      leaseExpiresAt: new Date(old),
      createdAt: new Date(old),
      expiresAt: new Date(old + IDEMPOTENCY_KEY_TTL_MS),
      answer: { status: 200, headers: {}, body: '{}' },
    });
    expect(await purgeExpiredIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    expect(await IdempotencyKeyModel.findById(idempotencyKeyId(caller.id, expired)).lean()).toBeNull();
    expect(await IdempotencyKeyModel.findById(idempotencyKeyId(caller.id, key)).lean()).toMatchObject({ state: 'done', answer: { status: 201 } });
  });
});

describe('one key, two app processes', () => {
  let second: SecondApp;
  beforeAll(async () => {
    second = await startSecondApp();
  }, 120_000);
  afterAll(() => second?.stop());

  it('when the same key reaches both processes at once, then the credits move once, and both answers are that one change or 409', async () => {
    const members = await Promise.all(Array.from({ length: 4 }, () => createMember()));
    for (const member of members) {
      const body = { userId: member.id, amount: 2, note: 'A gift' };
      const key = newKey();
      const answers = await Promise.all([app, second.url].map((through) => send('/user-setting/update-scredits', admin, body, key, through)));
      const done = answers.filter((res) => res.status === 200);
      const busy = answers.filter((res) => res.status === 409);
      expect(done.length + busy.length).toBe(2);
      expect(done.length).toBeGreaterThanOrEqual(1);
      for (const res of busy) expect(res.body).toMatchObject({ message: IN_USE, code: 'idempotency_key_in_use' });
      if (done.length === 2) expect(done[1]!.body).toEqual(done[0]!.body);
      expect(await creditsOf(member)).toEqual({ sCredit: 2, pCredit: 0 });
      // Sent again later, to either process: the one answer.
      const later = await send('/user-setting/update-scredits', admin, body, key, second.url).expect(200);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.body).toEqual(done[0]!.body);
    }
    // Without the key, the same two requests would have added 4: each is a change of its own.
    const member = await createMember();
    const body = { userId: member.id, amount: 2, note: 'A gift' };
    await Promise.all([app, second.url].map((through) => send('/user-setting/update-scredits', admin, body, undefined, through).expect(200)));
    expect(await creditsOf(member)).toEqual({ sCredit: 4, pCredit: 0 });
  });
});
