import { readerOf } from '../../lib/query';
import { Schema, model, type Types } from 'mongoose';

/**
 * A member's request to cash out their balance (saying yes in the price modal adds an Earn history item).
 * `_id` is a 24-hex string (the historyId); the ledger key of its payment is `cash-out:{_id}`.
 */
const cashOutRequestSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    /** The balance in whole cents when asked: what approval takes from the balance. */
    amountMicros: { type: Number, required: true },
    /**
     * `pending` while it waits; then `approved` (paid as a cash-out), `paidByPayout` (the monthly payout paid the
     * balance while it waited), `declined` by an admin, or `cancelled` by its member or an admin.
     */
    status: { type: String, enum: ['pending', 'approved', 'paidByPayout', 'declined', 'cancelled'], required: true },
    /**
     * `pending:{userId}` while pending, then the request's own id: a unique top-level field, so a member has
     * at most one pending request whatever the concurrency.
     */
    slot: { type: String, required: true, unique: true },
    at: { type: Date, required: true },
    decidedAt: { type: Date, default: null },
    decidedBy: { type: Schema.Types.ObjectId, default: null },
    /** declined: why, in the admin's words, which the member reads. */
    reason: { type: String, default: null },
    /** paidByPayout: the ledger key of the monthly payout that paid it. */
    payoutId: { type: String, default: null },
  },
  { versionKey: false },
);
cashOutRequestSchema.index({ userId: 1, at: -1 });
cashOutRequestSchema.index({ status: 1, at: 1 });

export type CashOutStatus = 'pending' | 'approved' | 'paidByPayout' | 'declined' | 'cancelled';

export interface CashOutRequestDoc {
  _id: string;
  userId: Types.ObjectId;
  amountMicros: number;
  status: CashOutStatus;
  slot: string;
  at: Date;
  decidedAt: Date | null;
  decidedBy: Types.ObjectId | null;
  reason?: string | null;
  payoutId?: string | null;
}

export const CashOutRequestModel = model<CashOutRequestDoc>('CashOutRequest', cashOutRequestSchema, 'cash_out_requests');

/**
 * One payout to send (a monthly payout or an approved cash-out), keyed by its ledger key. It is written
 * before the ledger entry and holds the amounts, so that a run that stopped half-way is finished by the next
 * one (post the entry, send); `claimedUntil` lets one sender at a time call the provider.
 */
const payoutSendSchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: ['payout', 'cash-out'], required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    /** cash-out: the request it pays; a monthly payout: the request waiting when it paid, which it closes. */
    requestId: { type: String, default: null },
    email: { type: String, required: true },
    /** What leaves the balance, the provider fee kept, and what is sent (amount - fee). */
    amountMicros: { type: Number, required: true },
    feeMicros: { type: Number, required: true },
    sentMicros: { type: Number, required: true },
    status: { type: String, enum: ['pending', 'sent'], required: true },
    claimedUntil: { type: Date, default: () => new Date(0) },
    attempts: { type: Number, default: 0 },
    lastError: { type: String, default: null },
    providerRef: { type: String, default: null },
    at: { type: Date, required: true },
    sentAt: { type: Date, default: null },
  },
  { versionKey: false },
);
payoutSendSchema.index({ status: 1, claimedUntil: 1 });
// The payout-notices job reads the sends of the last week that were sent.
payoutSendSchema.index({ status: 1, sentAt: 1 });

export interface PayoutSendDoc {
  _id: string;
  kind: 'payout' | 'cash-out';
  userId: Types.ObjectId;
  requestId: string | null;
  email: string;
  amountMicros: number;
  feeMicros: number;
  sentMicros: number;
  status: 'pending' | 'sent';
  claimedUntil: Date;
  attempts: number;
  lastError: string | null;
  providerRef: string | null;
  at: Date;
  sentAt: Date | null;
}

export const PayoutSendModel = model<PayoutSendDoc>('PayoutSend', payoutSendSchema, 'payout_sends');

/**
 * The member's latest cash-out request, by the member's id: the monthly payout finds the request that waits by
 * `_id` (a filter on the requests' other fields reads the whole collection on FerretDB). Written under the member's
 * funds lock after the request itself, so the payout, which holds the same lock, never misses a request asked
 * before it; whether that request still waits is its own status.
 */
const latestCashOutSchema = new Schema(
  {
    _id: { type: String, required: true },
    requestId: { type: String, required: true },
  },
  { versionKey: false },
);

export interface LatestCashOutDoc {
  _id: string;
  requestId: string;
}

export const LatestCashOutModel = model<LatestCashOutDoc>('LatestCashOut', latestCashOutSchema, 'latest_cash_outs');

/** Cash-out requests and payout sends as other modules may read them (they never write them). */
export const cashOutReads = readerOf<CashOutRequestDoc>(CashOutRequestModel);
export const payoutSendReads = readerOf<PayoutSendDoc>(PayoutSendModel);
