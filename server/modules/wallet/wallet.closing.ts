/**
 * A member's money when their account is deleted. What Knack owes them must be paid out or given up first: a
 * balance a cash-out can take ($10 and up, in whole cents) is refused unless the member gives it up, and a
 * cash-out waiting for approval keeps the account open until an admin decides it. What is given up (or any
 * balance too small to cash out) moves to `platform:forfeits` in one entry, `forfeit:{userId}`, so that the ledger
 * still sums and no other balance changes.
 */
import { Types } from 'mongoose';
import { AppError } from '../../lib/errors';
import { truncateToCents } from '../../lib/money';
import { ledgerSumOf, post, userAccount } from '../ledger';
import { MIN_PAYOUT_MICROS, withFundsLock } from './payouts';
import { CashOutRequestModel } from './wallet.model';

export const PLATFORM_FORFEITS = 'platform:forfeits';
export const forfeitKey = (userId: string) => `forfeit:${userId}`;

/** `$12.34`: an amount as the wallet shows it, in whole cents (what a cash-out would pay). */
const dollars = (micros: number) => `$${(truncateToCents(micros) / 1_000_000).toFixed(2)}`;

export const CLOSING_MESSAGES = {
  unpaid: (balanceMicros: number) => `You have ${dollars(balanceMicros)} not paid out yet. Cash it out from your wallet first, or choose to give it up.`,
  cashOutPending: 'Your cash-out request is waiting for approval. Delete your account once it is paid, or cancel the request first.',
  /** The same refusals, told to an admin deleting someone else's account. */
  memberUnpaid: (balanceMicros: number) => `This member has ${dollars(balanceMicros)} not paid out yet. Choose to give it up to delete the account.`,
  memberCashOutPending: "This member's cash-out request is waiting for approval. Decide it before deleting the account.",
} as const;

/**
 * Refuses (409) to delete an account whose money is not settled: a cash-out waiting for approval, or a balance a
 * cash-out could take that the member did not give up.
 */
export async function checkBalanceSettled(userId: string, giveUpBalance: boolean, { byAdmin = false } = {}): Promise<void> {
  if (await CashOutRequestModel.exists({ userId: new Types.ObjectId(userId), status: 'pending' })) {
    throw new AppError(409, 'cash_out_pending', byAdmin ? CLOSING_MESSAGES.memberCashOutPending : CLOSING_MESSAGES.cashOutPending);
  }
  const balanceMicros = await ledgerSumOf(userAccount(userId));
  if (!giveUpBalance && truncateToCents(balanceMicros) >= MIN_PAYOUT_MICROS) {
    const message = (byAdmin ? CLOSING_MESSAGES.memberUnpaid : CLOSING_MESSAGES.unpaid)(balanceMicros);
    throw new AppError(409, 'balance_unpaid', message, [{ path: 'giveUpBalance', message }]);
  }
}

/**
 * Moves the member's whole balance to `platform:forfeits`, once: under the funds lock, so that a payout or a
 * cash-out approved at the same moment cannot take the same money, and keyed `forfeit:{userId}`, so that a
 * retried deletion posts nothing more. Answers what was given up (0 when nothing was owed, or it was done before).
 */
export async function forfeitBalance(userId: string, now = new Date()): Promise<number> {
  return withFundsLock(userId, async () => {
    const account = userAccount(userId);
    const balanceMicros = await ledgerSumOf(account);
    if (balanceMicros <= 0) return 0;
    const { created } = await post({
      _id: forfeitKey(userId),
      kind: 'forfeit',
      at: now,
      actorId: new Types.ObjectId(userId),
      contentId: null,
      amountMicros: balanceMicros,
      ref: null,
      legs: [
        { account, amountMicros: -balanceMicros },
        { account: PLATFORM_FORFEITS, amountMicros: balanceMicros },
      ],
    });
    return created ? balanceMicros : 0;
  });
}
