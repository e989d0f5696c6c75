/**
 * The wallet: a member's figures, their payout account (PayPal email) and the cash-out requests an admin
 * approves or declines and a member may cancel. Everything is derived from the ledger.
 */
import { Types } from 'mongoose';
import { PATTERNS } from '../../../generated/validation';
import type { Mailer, MailMessage } from '../../integrations/mail';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { microsToUsd, truncateToCents } from '../../lib/money';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { readById } from '../../lib/query';
import type { AuthContext } from '../../lib/auth-context';
import { requireAdmin, requireOwnerOrAdmin, requireSelfOrAdmin } from '../../lib/permissions';
import { checkCurrentPassword } from '../auth';
import { contentReads } from '../contents';
import { ledgerSumOf, memberTotalsOf, userAccount } from '../ledger';
import { payoutAccountOf, releasePayoutHold, setPayoutEmail, userReads } from '../users';
import { cashOutKey, MIN_PAYOUT_MICROS, nextPayoutAt, withFundsLock, type Payouts } from './payouts';
import { cashOutDeclinedMail, cashOutRestoredMail, payoutEmailChangedMail } from './wallet.mails';
import { appendCashOutRequest, pendingCashOutOf } from './cash-outs.lists';
import { supportedFeesOf } from './wallet.collections';
import { CashOutRequestModel, LatestCashOutModel, PayoutSendModel, type CashOutRequestDoc, type LatestCashOutDoc, type PayoutSendDoc } from './wallet.model';

export const WALLET_MESSAGES = {
  minimum: 'You need to have a minimum balance of $10 to withdraw',
  noAccount: 'Add your PayPal email in payment settings first.',
  pendingExists: 'You already have a cash-out request waiting for approval.',
  requested: 'Your cash-out request was sent. It is paid to your PayPal account once approved.',
  approved: 'The cash-out was approved and sent.',
  approvedNotSent: 'The cash-out was approved; the payout provider did not take it yet, so it is sent again on the next payout run.',
  cancelled: 'The cash-out request was cancelled.',
  declined: 'The cash-out request was declined, and the member was told why.',
  decided: 'This cash-out request was already approved, declined or cancelled.',
  paidByPayout: 'This cash-out request was already paid by the monthly payout.',
  reasonRequired: 'Please tell the member why the cash-out is declined.',
  declineAdminsOnly: 'Only an admin can decline a cash-out.',
  notCovered: "The member's balance no longer covers this cash-out. Cancel it instead.",
  memberNoAccount: 'The member has no PayPal email in payment settings.',
  held: 'Your PayPal email is on hold: confirm it with your password in payment settings first.',
  memberHeld: "The member's PayPal email is on hold until they confirm it with their password. Nothing can be sent to it yet.",
  confirmed: 'Your PayPal email is confirmed: payouts and cash-outs go to it again.',
  forSelf: 'You can only cash out your own balance.',
  adminsOnly: 'Only an admin can approve a cash-out.',
  badEmail: 'Please enter a valid PayPal email address.',
  saved: 'Success',
  mailFailed: 'We could not send the email. Please try again in a moment.',
  notFound: 'This member was not found.',
  requestNotFound: 'This cash-out request was not found.',
  restored: 'The cash-out request is waiting again, and the member was told.',
  restoreAdminsOnly: 'Only an admin can restore a cash-out.',
  waitingAlready: 'This cash-out request is waiting already.',
  paidNotRestorable: 'A paid cash-out request cannot be restored.',
  otherWaiting: 'This member already has another cash-out request waiting.',
} as const;

/** Collections is 10% of what the member paid to support others' pieces. */
const COLLECTIONS_PERCENT = 10;

const usd = (micros: number) => microsToUsd(micros);

/** The member themself or an admin may read a member's money; to anyone else the member does not exist (404). */
export async function checkCanRead(caller: AuthContext, userId: string): Promise<void> {
  requireSelfOrAdmin(caller, userId, WALLET_MESSAGES.notFound);
  if (caller.userId !== userId && !(await userReads.exists({ _id: new Types.ObjectId(userId) }))) throw notFound(WALLET_MESSAGES.notFound);
}

/** What the history shows of a piece: its owner, payer, title and type. */
export type PieceFacts = { _id: Types.ObjectId; ownerId: Types.ObjectId; payerId: Types.ObjectId | null; title: string; type: string };

/**
 * Owner (and title, type, payer) of each piece named (a history page's, a statement batch's), by id; removed pieces are
 * missing. Each is read by `_id`, in parallel: a filter on a list of ids reads the whole collection on FerretDB.
 */
export async function piecesById(contentIds: (Types.ObjectId | string | null)[]): Promise<Map<string, PieceFacts>> {
  const ids = [...new Set(contentIds.filter(Boolean).map(String))];
  const pieces = await Promise.all(ids.map((id) => contentReads.byId<PieceFacts>(new Types.ObjectId(id), { ownerId: 1, title: 1, type: 1, payerId: 1 })));
  return new Map(pieces.filter((piece): piece is PieceFacts => piece !== null).map((piece) => [String(piece._id), piece]));
}

/** A listing fee paid on a piece the payer does not own supports it ('You supported …'). */
export const isSupport = (piece: { ownerId: Types.ObjectId } | undefined, payerId: string) => Boolean(piece && String(piece.ownerId) !== payerId);

/** What the wallet needs besides payouts: the mailer and the site's address for the notice of a changed payout email. */
export interface WalletDeps {
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
}

export function createWalletService(payouts: Payouts, { mailer, publicUrl, logger }: WalletDeps) {
  async function requestOf(historyId: string): Promise<CashOutRequestDoc> {
    const request = await CashOutRequestModel.findById(historyId).lean<CashOutRequestDoc>();
    if (!request) throw notFound(WALLET_MESSAGES.requestNotFound);
    return request;
  }

  /** 409 unless the request still waits: the same answer to approve, decline and cancel. */
  function checkWaiting(request: CashOutRequestDoc): void {
    if (request.status === 'paidByPayout') throw new AppError(409, 'conflict', WALLET_MESSAGES.paidByPayout);
    if (request.status !== 'pending') throw new AppError(409, 'conflict', WALLET_MESSAGES.decided);
  }

  /**
   * Closes a waiting request without paying it (cancelled by its member or an admin, declined by an admin), under
   * the funds lock so that it cannot cross an approval or the monthly payout.
   */
  async function closeUnpaid(
    caller: AuthContext,
    request: CashOutRequestDoc,
    change: { status: 'cancelled' } | { status: 'declined'; reason: string },
    now: Date,
  ) {
    const historyId = request._id;
    return withFundsLock(String(request.userId), async () => {
      // A payout recorded for it means an approval (maybe stopped half-way, then finished by the next run).
      if (await PayoutSendModel.exists({ _id: cashOutKey(historyId) })) throw new AppError(409, 'conflict', WALLET_MESSAGES.decided);
      // Read, then written by `_id`: an approval or a payout records its payment under this same lock before it
      // changes the status, and a recorded payment stops here, so nothing can change the status between the two.
      checkWaiting(await requestOf(historyId));
      return (await CashOutRequestModel.findByIdAndUpdate(
        historyId,
        { $set: { ...change, slot: historyId, decidedAt: now, decidedBy: new Types.ObjectId(caller.userId) } },
        { new: true },
      ).lean<CashOutRequestDoc>())!;
    });
  }

  /** Mails the member about their decided request; the decision stands if the mail fails (their history shows it). */
  async function tellMember(userId: string, mail: (to: string, firstName: string) => MailMessage): Promise<void> {
    try {
      const member = await userReads.byId<{ email: string; firstName?: string | null }>(new Types.ObjectId(userId), { email: 1, firstName: 1 });
      if (member) await mailer.send(mail(member.email, member.firstName ?? ''));
    } catch (err) {
      logger.error({ err, userId }, 'cash-out mail not sent');
    }
  }

  /**
   * Puts a declined or cancelled request back to waiting, under the funds lock like every decision on it. Its slot
   * becomes `pending:{userId}` again, so a member who asked anew meanwhile keeps one waiting request (the unique slot
   * refuses the second); it becomes the member's latest request, which is where the monthly payout looks.
   */
  async function reopen(request: CashOutRequestDoc): Promise<CashOutRequestDoc> {
    const userId = String(request.userId);
    return withFundsLock(userId, async () => {
      const current = await requestOf(request._id);
      if (current.status === 'pending') throw new AppError(409, 'conflict', WALLET_MESSAGES.waitingAlready);
      if (current.status === 'approved' || current.status === 'paidByPayout') throw new AppError(409, 'conflict', WALLET_MESSAGES.paidNotRestorable);
      if ((await ledgerSumOf(userAccount(userId))) < current.amountMicros) throw new AppError(409, 'conflict', WALLET_MESSAGES.notCovered);
      if (await pendingCashOutOf(userId)) throw new AppError(409, 'conflict', WALLET_MESSAGES.otherWaiting);
      // Named the member's latest before it waits again: a waiting request deep in their list is found by this pointer
      // (cash-outs.lists.ts), so no moment exists in which it waits and cannot be found.
      const previous = await readById<LatestCashOutDoc>(LatestCashOutModel, userId);
      await LatestCashOutModel.updateOne({ _id: userId }, { $set: { requestId: current._id } }, { upsert: true });
      try {
        return (await CashOutRequestModel.findByIdAndUpdate(
          current._id,
          { $set: { status: 'pending', slot: `pending:${userId}`, decidedAt: null, decidedBy: null, reason: null } },
          { new: true },
        ).lean<CashOutRequestDoc>())!;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // Another request waits after all: the pointer goes back to the one it named, which may be that one.
        if (previous) await LatestCashOutModel.updateOne({ _id: userId }, { $set: { requestId: previous.requestId } });
        throw new AppError(409, 'conflict', WALLET_MESSAGES.otherWaiting);
      }
    });
  }

  return {
    async summary(caller: AuthContext, userId: string, now = new Date()) {
      await checkCanRead(caller, userId);
      // The member's running totals (the ledger's kept chain of their postings): a few reads by `_id`, not their history.
      // The fees they paid on others' pieces (wallet.collections.ts) and their waiting request (cash-outs.lists.ts): by `_id` too.
      const [{ balanceMicros, uploadsMicros, paidOutMicros }, supportedMicros, pending, payoutAccount] = await Promise.all([
        memberTotalsOf(userId),
        supportedFeesOf(userId),
        pendingCashOutOf(userId),
        payoutAccountOf(userId),
      ]);
      const collectionsMicros = Math.floor((supportedMicros * COLLECTIONS_PERCENT) / 100);
      const pendingCashOutMicros = pending?.amountMicros ?? 0;
      return {
        balance: usd(balanceMicros),
        balanceMicros,
        canCashOut: balanceMicros >= MIN_PAYOUT_MICROS,
        minCashOut: usd(MIN_PAYOUT_MICROS),
        uploads: usd(uploadsMicros),
        uploadsMicros,
        collections: usd(collectionsMicros),
        collectionsMicros,
        totalValue: usd(uploadsMicros + collectionsMicros),
        totalValueMicros: uploadsMicros + collectionsMicros,
        paidOut: usd(paidOutMicros),
        paidOutMicros,
        pendingCashOut: usd(pendingCashOutMicros),
        pendingCashOutMicros,
        payoutAccount,
        nextPayoutAt: nextPayoutAt(now).toISOString(),
      };
    },

    /**
     * Changes where the member's money is sent: only with their current password, and never silently. The
     * account address is told of every change, so that a member whose session was taken finds out. Saving the
     * address it has while it is held (set while someone else may have had the account) confirms it.
     */
    async updatePaymentInfo(caller: AuthContext, userId: string, paypal: string, password: string | undefined, now = new Date()) {
      if (caller.userId !== userId) throw notFound(WALLET_MESSAGES.notFound);
      const email = paypal.trim().toLowerCase();
      if (!PATTERNS.email.test(email)) throw badRequest(WALLET_MESSAGES.badEmail, [{ path: 'paypal', message: WALLET_MESSAGES.badEmail }]);
      const member = await checkCurrentPassword(userId, password);
      const current = await payoutAccountOf(userId);
      const previous = current?.paypal ?? null;
      if (previous === email) {
        if (!current?.held) return { message: WALLET_MESSAGES.saved, paypal: email };
        await releasePayoutHold(userId);
        return { message: WALLET_MESSAGES.confirmed, paypal: email };
      }
      await setPayoutEmail(userId, email);
      try {
        await mailer.send(payoutEmailChangedMail(member.email, member.firstName, email, now, `${publicUrl}/auth/forgot-password`));
      } catch (err) {
        // The notice could not even be kept in the outbox (a mail server that is down only delays it). A change the
        // member is not told of is what this notice exists to prevent: undo it (unless a newer change came meanwhile)
        // and ask them to try again.
        logger.error({ err }, 'payout email notice failed; change undone');
        await setPayoutEmail(userId, previous, { replacing: email, held: Boolean(current?.held) });
        throw new AppError(503, 'mail_failed', WALLET_MESSAGES.mailFailed);
      }
      return { message: WALLET_MESSAGES.saved, paypal: email };
    },

    /**
     * Asks to cash out the whole balance (in whole cents); one pending request per member. Under the funds lock,
     * so that the monthly payout, which holds it too, sees the request (and its balance) or none of it.
     */
    async requestCashOut(caller: AuthContext, userId: string, now = new Date()): Promise<CashOutRequestDoc> {
      if (caller.userId !== userId) throw new AppError(403, 'forbidden', WALLET_MESSAGES.forSelf);
      return withFundsLock(userId, async () => {
        const amountMicros = truncateToCents(await ledgerSumOf(userAccount(userId)));
        if (amountMicros < MIN_PAYOUT_MICROS) throw badRequest(WALLET_MESSAGES.minimum);
        const payoutAccount = await payoutAccountOf(userId);
        if (!payoutAccount) throw badRequest(WALLET_MESSAGES.noAccount, [{ path: 'paypal', message: WALLET_MESSAGES.noAccount }]);
        if (payoutAccount.held) throw new AppError(409, 'conflict', WALLET_MESSAGES.held, [{ path: 'paypal', message: WALLET_MESSAGES.held }]);
        // The waiting request is found by `_id` (cash-outs.lists.ts); the unique waiting slot refuses a twin regardless.
        if (await pendingCashOutOf(userId)) throw new AppError(409, 'conflict', WALLET_MESSAGES.pendingExists);
        const id = new Types.ObjectId().toHexString();
        // Its number on the member's list first: a request is never written without one (a number whose request is
        // not written is skipped by the readers).
        await appendCashOutRequest(userId, id, now);
        let created: CashOutRequestDoc;
        try {
          created = (
            await CashOutRequestModel.create({
              _id: id,
              userId: new Types.ObjectId(userId),
              amountMicros,
              status: 'pending',
              slot: `pending:${userId}`,
              at: now,
            })
          ).toObject();
        } catch (err) {
          if (isDuplicateKey(err)) throw new AppError(409, 'conflict', WALLET_MESSAGES.pendingExists);
          throw err;
        }
        faultPoint(FAULT_POINTS.cashOutAfterRequest);
        await LatestCashOutModel.updateOne({ _id: userId }, { $set: { requestId: id } }, { upsert: true });
        return created;
      });
    },

    /**
     * Pays a pending request: under the member's funds lock, checks the balance still covers it, records and
     * posts `cash-out:{id}`, then sends. Approving an approved request sends what is left to send, nothing more.
     */
    async approveCashOut(
      caller: AuthContext,
      historyId: string,
      now = new Date(),
    ): Promise<{ request: CashOutRequestDoc; send: PayoutSendDoc | null; statusBefore: CashOutRequestDoc['status'] }> {
      requireAdmin(caller, WALLET_MESSAGES.adminsOnly);
      const first = await requestOf(historyId);
      const userId = String(first.userId);
      const key = cashOutKey(historyId);
      // Only the approval that records the payment decides it; a twin answers the same. The member's notice goes out
      // once the provider has taken it, by the payouts' one path for every payout (onSent).
      await withFundsLock(userId, async () => {
        const request = await requestOf(historyId);
        const recorded = await PayoutSendModel.findById(key).lean<PayoutSendDoc>();
        if (recorded) {
          await payouts.settle(recorded); // approved before, maybe half-way: finish it
          return;
        }
        checkWaiting(request);
        if ((await ledgerSumOf(userAccount(userId))) < request.amountMicros) throw new AppError(409, 'conflict', WALLET_MESSAGES.notCovered);
        const payoutAccount = await payoutAccountOf(userId);
        if (!payoutAccount) throw new AppError(409, 'conflict', WALLET_MESSAGES.memberNoAccount);
        if (payoutAccount.held) throw new AppError(409, 'conflict', WALLET_MESSAGES.memberHeld);
        await payouts.prepare('cash-out', key, userId, request.amountMicros, payoutAccount.paypal, historyId, now);
        await CashOutRequestModel.updateOne({ _id: historyId }, { $set: { decidedBy: new Types.ObjectId(caller.userId) } });
      });
      const send = await payouts.deliver(key);
      return { request: await requestOf(historyId), send, statusBefore: first.status };
    },

    /** Cancels a pending request (an admin, or its member); the balance is available again at once. */
    async cancelCashOut(caller: AuthContext, historyId: string, now = new Date()): Promise<CashOutRequestDoc> {
      const request = await requestOf(historyId);
      requireOwnerOrAdmin(caller, String(request.userId), WALLET_MESSAGES.requestNotFound);
      return closeUnpaid(caller, request, { status: 'cancelled' }, now);
    },

    /** An admin declines a pending request with a reason: nothing is paid, and the member is mailed the reason. */
    async declineCashOut(caller: AuthContext, historyId: string, reason: string, now = new Date()): Promise<CashOutRequestDoc> {
      requireAdmin(caller, WALLET_MESSAGES.declineAdminsOnly);
      const why = reason.trim();
      if (!why) throw badRequest(WALLET_MESSAGES.reasonRequired, [{ path: 'reason', message: WALLET_MESSAGES.reasonRequired }]);
      const declined = await closeUnpaid(caller, await requestOf(historyId), { status: 'declined', reason: why }, now);
      await tellMember(String(declined.userId), (to, firstName) => cashOutDeclinedMail(to, firstName, declined.amountMicros, why, publicUrl));
      return declined;
    },

    /**
     * An admin undoes a decline or a cancel: the request waits again for the same amount, if the member's balance
     * still covers it, and the member is mailed. A paid request stays paid.
     */
    async restoreCashOut(caller: AuthContext, historyId: string): Promise<{ request: CashOutRequestDoc; statusBefore: CashOutRequestDoc['status'] }> {
      requireAdmin(caller, WALLET_MESSAGES.restoreAdminsOnly);
      const before = await requestOf(historyId);
      const request = await reopen(before);
      await tellMember(String(request.userId), (to, firstName) => cashOutRestoredMail(to, firstName, request.amountMicros, publicUrl));
      return { request, statusBefore: before.status };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
