/**
 * Sending money out: the monthly payout of every balance of at least $10 and the payment of approved
 * cash-outs. Both take what leaves the balance in whole cents (a sub-cent rest stays for later), keep the
 * provider fee and send the rest through the payout provider.
 *
 * Money happens once: the ledger key (`payout:{userId}:{yyyy-mm}`, `cash-out:{requestId}`) is unique, is
 * the provider's idempotency key, and its send record (wallet.model.ts) is written before the ledger entry,
 * so a run that stopped half-way is finished (entry, then send) by the next one. Deciding an amount reads
 * the balance, so it happens under a per-member lock (`funds:{userId}`, lib/mutex.ts), else a payout and a
 * cash-out approved at the same moment, in two processes, could both take the same balance. Calling the
 * provider happens under a lease on the payout (`send:{key}`), so that one sender at a time sends it.
 *
 * A cash-out request waiting when the monthly payout reaches its member does not hold the balance back: the payout
 * pays the whole balance, as the member asked, and closes the request as paid by it (`paidByPayout`), under the
 * same lock an approval takes. So the balance is paid once, by whichever of the two comes first, and the other
 * finds the request decided.
 */
import { Types } from 'mongoose';
import type { PayoutsConfig } from '../../config';
import type { PayoutProvider } from '../../integrations/payouts';
import { monthBefore } from '../../lib/calendar';
import { AppError } from '../../lib/errors';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import type { Logger } from '../../lib/logger';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { withLease, withLock } from '../../lib/mutex';
import { truncateToCents } from '../../lib/money';
import { anyOf, ours } from '../../lib/query';
import { ledgerSumOf, memberBalancesFrom, post, userAccount } from '../ledger';
import { MIN_CASH_OUT_MICROS } from '../knacks';
import { PLATFORM_FEES } from '../payments';
import { userExtReads } from '../users';
import { pendingCashOutOf } from './cash-outs.lists';
import { CashOutRequestModel, PayoutSendModel, type CashOutRequestDoc, type PayoutSendDoc } from './wallet.model';

/** Payouts are made from a balance of $10, the same threshold as cash-out (the knacks module's canCashOut). */
export const MIN_PAYOUT_MICROS = MIN_CASH_OUT_MICROS;
export const EXTERNAL_PAYOUTS = 'external:payouts';
export const PAYOUT_CRON = '0 0 1 * *';

/** A send the provider refused (not one another sender is sending right now). */
export const notSent = (send: PayoutSendDoc | null) => Boolean(send && send.status !== 'sent' && send.claimedUntil.getTime() <= Date.now());

export type PayoutFees = Pick<PayoutsConfig, 'feeBasisPoints' | 'feeMaxMicros'>;

const MICROS_PER_CENT = 10_000n;
const FUNDS_LOCK_MS = 60_000;
const FUNDS_WAIT_MS = 5_000;
/** How long one sender may hold a payout before another may try it again. */
const SEND_CLAIM_MS = 2 * 60_000;
/** How often a caller waiting for another's send of the same payout looks at its record. */
const OTHER_SEND_POLL_MS = 50;

export const WALLET_BUSY = "This member's balance is being paid out right now. Please try again in a moment.";

/** The provider fee on `amountMicros`: the percentage rounded up to the cent, capped. Integer arithmetic only. */
export function payoutFee(amountMicros: number, { feeBasisPoints, feeMaxMicros }: PayoutFees): number {
  const exact = BigInt(amountMicros) * BigInt(feeBasisPoints);
  const cents = (exact + 10_000n * MICROS_PER_CENT - 1n) / (10_000n * MICROS_PER_CENT);
  return Math.min(Number(cents * MICROS_PER_CENT), feeMaxMicros);
}

/** The legs of a payout or cash-out of `amountMicros` with `feeMicros` kept: they sum to zero. */
export function payoutLegs(userId: string, amountMicros: number, feeMicros: number) {
  return [
    { account: userAccount(userId), amountMicros: -amountMicros },
    { account: EXTERNAL_PAYOUTS, amountMicros: amountMicros - feeMicros },
    ...(feeMicros ? [{ account: PLATFORM_FEES, amountMicros: feeMicros }] : []),
  ];
}

/** The month a run pays (the month before the run, whose earnings it pays out), as `yyyy-mm`. */
export const paidMonth = (now: Date): string => monthBefore(now).month;

export const payoutKey = (userId: string, now: Date) => `payout:${userId}:${paidMonth(now)}`;
export const cashOutKey = (requestId: string) => `cash-out:${requestId}`;

/** 00:00 UTC on the 1st of the month after `now`: when the payout job runs next. */
export const nextPayoutAt = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

/** Runs `fn` holding the member's funds lock, waiting a few seconds for another holder; 409 if it stays taken. */
export function withFundsLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
  return withLock(`funds:${userId}`, fn, { ttlMs: FUNDS_LOCK_MS, waitMs: FUNDS_WAIT_MS, busyMessage: WALLET_BUSY });
}

const isFundsBusy = (err: unknown) => err instanceof AppError && err.status === 409 && err.message === WALLET_BUSY;

export interface PayoutSummary {
  /** Members paid by this run. */
  paid: number;
  /** Members of at least $10 not paid: no PayPal email (or one held), or their funds busy with another payment. */
  skipped: number;
  /** What this run took from balances (before the provider fee). */
  totalMicros: number;
  /** Payouts of this run or earlier ones whose sending failed (they are tried again on the next run). */
  failed: number;
}

export interface PayoutsDeps {
  provider: PayoutProvider;
  fees: PayoutFees;
  logger: Logger;
  /**
   * Told of each payout the provider has taken (the member's notice: one path for monthly payouts and cash-outs).
   * It must be safe to call again for the same send; a failure is logged, never undoes the payout.
   */
  onSent?: (send: PayoutSendDoc) => Promise<unknown>;
}

export function createPayouts({ provider, fees, logger, onSent }: PayoutsDeps) {
  const log = logger.child({ module: 'payouts' });

  async function tellSent(send: PayoutSendDoc | null): Promise<void> {
    if (!onSent || send?.status !== 'sent') return;
    try {
      await onSent(send);
    } catch (err) {
      log.warn({ err, payoutId: send._id }, 'payout sent; its notice is left to the payout-notices job');
    }
  }

  /** Writes the send record once (a twin's insert collides on `_id` and the first one stays). */
  async function record(send: Omit<PayoutSendDoc, 'status' | 'claimedUntil' | 'attempts' | 'lastError' | 'providerRef' | 'sentAt'>): Promise<PayoutSendDoc> {
    try {
      return (await PayoutSendModel.create({ ...send, status: 'pending' })).toObject();
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return (await PayoutSendModel.findById(send._id).lean<PayoutSendDoc>())!;
    }
  }

  /**
   * Posts the ledger entry of a recorded payout (idempotent) and closes the request it pays: a cash-out's as
   * approved, the request a monthly payout found waiting as paid by that payout.
   */
  async function settle(send: PayoutSendDoc): Promise<void> {
    await post({
      _id: send._id,
      kind: send.kind,
      at: send.at,
      actorId: send.userId,
      contentId: null,
      amountMicros: send.amountMicros,
      ref: null,
      legs: payoutLegs(String(send.userId), send.amountMicros, send.feeMicros),
    });
    faultPoint(FAULT_POINTS.payoutAfterLedger);
    if (send.requestId) {
      // A recorded send decides its request: its status is written under the funds lock that recorded it, or by a
      // later run finishing a stopped one (a twin settle writing the same values).
      const request = await CashOutRequestModel.findById(send.requestId, { status: 1 }).lean();
      if (request?.status === 'pending') {
        const closed = send.kind === 'cash-out' ? { status: 'approved' } : { status: 'paidByPayout', payoutId: send._id };
        await CashOutRequestModel.updateOne({ _id: send.requestId }, { $set: { ...closed, slot: send.requestId, decidedAt: send.at } });
      }
    }
  }

  /**
   * Sends a settled payout through the provider, by one sender at a time; answers the record as it is after. When
   * another caller is sending it at that moment (two admins approving at once, an approval beside the payout job),
   * this one waits for that send's outcome and answers it, rather than a "not sent yet" that is already untrue.
   */
  async function deliver(key: string): Promise<PayoutSendDoc | null> {
    const waitUntil = Date.now() + SEND_CLAIM_MS;
    for (;;) {
      const outcome = await withLease(`send:${key}`, SEND_CLAIM_MS, () => sendOnce(key));
      if (outcome.taken) {
        await tellSent(outcome.result);
        return outcome.result;
      }
      const current = await PayoutSendModel.findById(key).lean<PayoutSendDoc>();
      if (current?.status !== 'pending' || Date.now() >= waitUntil) return current;
      await new Promise((resolve) => setTimeout(resolve, OTHER_SEND_POLL_MS));
    }
  }

  /** Calls the provider for a payout not sent yet; only under the payout's lease (deliver). */
  async function sendOnce(key: string): Promise<PayoutSendDoc | null> {
    const now = new Date();
    const current = await PayoutSendModel.findById(key).lean<PayoutSendDoc>();
    if (current?.status !== 'pending') return current;
    // Only the lease holder writes here, so this read-change-write loses nothing.
    const claimed = (await PayoutSendModel.findByIdAndUpdate(
      key,
      { $set: { claimedUntil: new Date(now.getTime() + SEND_CLAIM_MS) }, $inc: { attempts: 1 } },
      { new: true },
    ).lean<PayoutSendDoc>())!;
    const note = claimed.kind === 'payout' ? `Your Knack payout for ${claimed._id.slice(-7)}` : 'Your Knack cash-out';
    try {
      const { providerRef } = await provider.send({ payoutId: key, email: claimed.email, amountMicros: claimed.sentMicros, note });
      faultPoint(FAULT_POINTS.payoutAfterProvider);
      return PayoutSendModel.findOneAndUpdate(
        { _id: key },
        { $set: { status: 'sent', providerRef, sentAt: new Date(), lastError: null, claimedUntil: new Date() } },
        { new: true },
      ).lean<PayoutSendDoc>();
    } catch (err) {
      log.warn({ err, payoutId: key }, 'payout not sent; it is tried again on the next run');
      return PayoutSendModel.findOneAndUpdate(
        { _id: key },
        { $set: { lastError: (err as Error).message.slice(0, 500), claimedUntil: new Date() } },
        { new: true },
      ).lean<PayoutSendDoc>();
    }
  }

  /** Records, settles and sends one payout of the member's balance; null when there is nothing to pay. */
  async function prepare(kind: PayoutSendDoc['kind'], key: string, userId: string, amountMicros: number, email: string, requestId: string | null, at: Date) {
    const feeMicros = payoutFee(amountMicros, fees);
    const send = await record({
      _id: key,
      kind,
      userId: new Types.ObjectId(userId),
      requestId,
      email,
      amountMicros,
      feeMicros,
      sentMicros: amountMicros - feeMicros,
      at,
    });
    faultPoint(FAULT_POINTS.payoutAfterRecord);
    await settle(send);
    return send;
  }

  /**
   * The member's request that waits, if any: found by `_id` (cash-outs.lists.ts), or `asked`, a waiting request the run
   * found before it started. Under the funds lock.
   */
  async function waitingRequestOf(userId: string, asked: string | undefined): Promise<string | null> {
    const waiting = await pendingCashOutOf(userId);
    if (waiting) return waiting._id;
    if (!asked) return null;
    const request = await CashOutRequestModel.findById(asked, { status: 1 }).lean<Pick<CashOutRequestDoc, 'status'>>();
    return request?.status === 'pending' ? asked : null;
  }

  /** Finishes payouts left half-way (recorded but not sent) by a stopped run or a provider that failed. */
  async function resume(): Promise<number> {
    const stuck = await PayoutSendModel.find(ours({ status: 'pending', claimedUntil: { $lte: new Date() } })).lean<PayoutSendDoc[]>();
    let failed = 0;
    for (const send of stuck) {
      await settle(send);
      if (notSent(await deliver(send._id))) failed += 1;
    }
    return failed;
  }

  return {
    settle,
    deliver,
    prepare,

    /**
     * The monthly payout (cron `0 0 1 * *` UTC): every member whose balance is at least $10 and who has a
     * PayPal email not held is paid their balance in whole cents, once per month (`payout:{userId}:{yyyy-mm}`).
     * A cash-out request waiting then is closed as paid by the payout. Callable directly with `now` (tests, a
     * manual run); a second or concurrent run pays nothing more.
     */
    async runMonthly(now = new Date()): Promise<PayoutSummary> {
      const summary: PayoutSummary = { paid: 0, skipped: 0, totalMicros: 0, failed: await resume() };
      const balances = await memberBalancesFrom(MIN_PAYOUT_MICROS);
      const userIds = balances.map((b) => b._id.slice('user:'.length)).filter((id) => Types.ObjectId.isValid(id));
      const ids = userIds.map((id) => new Types.ObjectId(id));
      const [exts, pending] = await Promise.all([
        userExtReads.many({ userId: anyOf(ids) }, { projection: { userId: 1, paypal: 1, paypalHeld: 1 } }),
        CashOutRequestModel.find({ userId: anyOf(ids), status: 'pending' }, { userId: 1 }).lean(),
      ]);
      // A held address (set while someone else may have had the account) is paid nothing until its member confirms it.
      const emails = new Map(exts.filter((ext) => ext.paypal && !ext.paypalHeld).map((ext) => [String(ext.userId), ext.paypal as string]));
      const asked = new Map(pending.map((request) => [String(request.userId), request._id]));

      for (const userId of userIds) {
        const email = emails.get(userId);
        if (!email) {
          summary.skipped += 1;
          continue;
        }
        const key = payoutKey(userId, now);
        let send: PayoutSendDoc | null;
        try {
          send = await withFundsLock(userId, async () => {
            if (await PayoutSendModel.exists({ _id: key })) return null; // this month's payout exists already
            const amountMicros = truncateToCents(await ledgerSumOf(userAccount(userId)));
            if (amountMicros < MIN_PAYOUT_MICROS) return null;
            return prepare('payout', key, userId, amountMicros, email, await waitingRequestOf(userId, asked.get(userId)), now);
          });
        } catch (err) {
          if (!isFundsBusy(err)) throw err;
          summary.skipped += 1;
          continue;
        }
        if (!send) continue;
        summary.paid += 1;
        summary.totalMicros += send.amountMicros;
        if (notSent(await deliver(key))) summary.failed += 1;
      }
      log.info({ month: paidMonth(now), ...summary }, 'monthly payouts done');
      return summary;
    },
  };
}

export type Payouts = ReturnType<typeof createPayouts>;
