import { Schema, model, type Types } from 'mongoose';

export type OrderStatus = 'pending' | 'paid' | 'failed' | 'superseded';

/**
 * A listing fee paid by card: one order per checkout. Status moves only forward: pending -> paid | failed,
 * failed -> paid (the provider says the money came after all), paid -> superseded (someone else monetized
 * the piece first; the payment is refunded, and the ledger entry `refund:{orderId}` says it was). Never from
 * paid to failed.
 */
const paymentOrderSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    contentId: { type: Schema.Types.ObjectId, ref: 'Content', required: true },
    amountMicros: { type: Number, required: true },
    /** What the payment is for: a piece's listing fee, or the fee that opens a sold piece to bids again. */
    purpose: { type: String, enum: ['listing', 'relisting'], default: 'listing' },
    /** relisting: the sold bid whose piece the payment opens to bids again (the entry `relisting:{bidId}`). */
    soldBidId: { type: String, default: null },
    provider: { type: String, enum: ['sandbox', 'stripe'], required: true },
    /** The provider's checkout id, set once the checkout exists. */
    sessionId: { type: String, default: null },
    status: { type: String, enum: ['pending', 'paid', 'failed', 'superseded'], default: 'pending' },
    /** The webhook event that paid it: the listing entry's `ref` is `webhook:{paidEventId}`. */
    paidEventId: { type: String, default: null },
    /** The provider's id of the payment (WebhookEvent.paymentId): what a refund names. */
    paymentId: { type: String, default: null },
  },
  { timestamps: true, versionKey: false },
);
paymentOrderSchema.index({ userId: 1, createdAt: -1 });
paymentOrderSchema.index({ contentId: 1 });

export interface PaymentOrderDoc {
  _id: string;
  userId: Types.ObjectId;
  contentId: Types.ObjectId;
  amountMicros: number;
  /** Missing on orders made before relisting existed: a listing. */
  purpose?: 'listing' | 'relisting';
  soldBidId?: string | null;
  provider: 'sandbox' | 'stripe';
  sessionId: string | null;
  status: OrderStatus;
  paidEventId: string | null;
  paymentId?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const PaymentOrderModel = model<PaymentOrderDoc>('PaymentOrder', paymentOrderSchema, 'payment_orders');

/**
 * Webhook events already applied, `_id: {provider}:{eventId}`: a redelivery is answered as a duplicate.
 * Written after applying, so a crash between the two re-applies the event (applying is idempotent).
 */
const paymentEventSchema = new Schema(
  {
    _id: { type: String, required: true },
    provider: { type: String, required: true },
    eventId: { type: String, required: true },
    type: { type: String, required: true },
    orderId: { type: String, default: null },
    sessionId: { type: String, default: null },
    receivedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export const PaymentEventModel = model('PaymentEvent', paymentEventSchema, 'payment_events');

/** Which listing-fee tiers a discount code pays for. */
export type DiscountCover = 'standard' | 'premium' | 'both';
export const DISCOUNT_COVERS: readonly DiscountCover[] = ['standard', 'premium', 'both'];

/**
 * A discount code that covers a listing fee: `_id` the upper-cased code; each use is a DiscountUse. `covers` says
 * for which tier; codes made before it existed have none and cover both.
 */
const discountCodeSchema = new Schema(
  {
    _id: { type: String, required: true },
    maxUses: { type: Number, required: true, min: 1 },
    expiresAt: { type: Date, default: null },
    covers: { type: String, enum: DISCOUNT_COVERS, default: 'both' },
    createdBy: { type: Schema.Types.ObjectId, ref: 'User', required: true },
  },
  { timestamps: true, versionKey: false },
);

export interface DiscountCodeDoc {
  _id: string;
  maxUses: number;
  expiresAt: Date | null;
  covers?: DiscountCover;
  createdBy: Types.ObjectId;
  createdAt: Date;
}

export const DiscountCodeModel = model<DiscountCodeDoc>('DiscountCode', discountCodeSchema, 'discount_codes');

/**
 * One use of a code, in one of its `maxUses` slots: `_id: {code}#{slot}`. Taking a slot is an insert that
 * the unique `_id` lets only one caller win, so a code is never used more than `maxUses` times, also on
 * FerretDB, whose SQLite backend does not apply a guarded update atomically (its find and its write can
 * interleave with another caller's).
 */
const discountUseSchema = new Schema(
  {
    _id: { type: String, required: true },
    code: { type: String, required: true },
    slot: { type: Number, required: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    contentId: { type: Schema.Types.ObjectId, ref: 'Content', required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
discountUseSchema.index({ code: 1 });

export interface DiscountUseDoc {
  _id: string;
  code: string;
  slot: number;
  userId: Types.ObjectId;
  contentId: Types.ObjectId;
  at: Date;
}

export const DiscountUseModel = model<DiscountUseDoc>('DiscountUse', discountUseSchema, 'discount_uses');
