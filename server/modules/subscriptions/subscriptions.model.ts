import { randomBytes } from 'node:crypto';
import { readerOf } from '../../lib/query';
import { Schema, model } from 'mongoose';

export type SubscriptionStatus = 'pending' | 'active' | 'failed' | 'ended';

/**
 * A member's subscription to a plan. `_id` and `subscriptionId` are the same id (`sub_…`), which the payment
 * provider's events carry back, so an event finds its subscription by `_id`.
 *
 * Status: `pending` while its checkout is open, then `active` once its first month is paid (or `failed` when
 * the checkout ends unpaid); `ended` when the provider ends it. An active subscription gives its plan until
 * `currentPeriodEnd` (null: no end, for a subscription granted without a provider); each paid month moves the
 * end on. Cancelling (`cancelAtPeriodEnd`) stops the renewals, and a failed renewal ends it at the same point.
 */
const subscriptionSchema = new Schema(
  {
    _id: { type: String, default: () => newSubscriptionId() },
    subscriptionId: { type: String, required: true, unique: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    planId: { type: Number, required: true },
    status: { type: String, enum: ['pending', 'active', 'failed', 'ended'], default: 'active' },
    /** The monthly price at checkout, in micro-dollars. */
    priceMicros: { type: Number, default: 0 },
    provider: { type: String, default: null },
    /** The provider's own id of the subscription, known from its first paid event. */
    providerSubscriptionId: { type: String, default: null },
    currentPeriodEnd: { type: Date, default: null },
    cancelAtPeriodEnd: { type: Boolean, default: false },
    /** When a renewal's payment failed: the plan ends with the period already paid. */
    paymentFailedAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
subscriptionSchema.index({ userId: 1, createdAt: -1 });

export interface SubscriptionDoc {
  _id: string;
  subscriptionId: string;
  userId: import('mongoose').Types.ObjectId;
  planId: number;
  status: SubscriptionStatus;
  priceMicros: number;
  provider: string | null;
  providerSubscriptionId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  paymentFailedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** `sub_` and 20 hex digits: 24 characters, as the contract allows. */
export const newSubscriptionId = () => `sub_${randomBytes(10).toString('hex')}`;

export const SubscriptionModel = model<SubscriptionDoc>('Subscription', subscriptionSchema, 'subscriptions');

/** Whether the subscription gives its plan at `now`. */
export const givesPlan = (subscription: Pick<SubscriptionDoc, 'status' | 'currentPeriodEnd'>, now = new Date()) =>
  subscription.status === 'active' && (!subscription.currentPeriodEnd || subscription.currentPeriodEnd > now);

/** Subscriptions as other modules may read them (they never write them). */
export const subscriptionReads = readerOf<SubscriptionDoc>(SubscriptionModel);
