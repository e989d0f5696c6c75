import { randomBytes } from 'node:crypto';
import { numberedChains } from '../../lib/numbered-chain';
import { readById, readerOf } from '../../lib/query';
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

/**
 * A member's plan starts: a numbered chain per member (`{userId}#{n}`, lib/numbered-chain.ts), each entry naming a
 * subscription that may have begun to give its plan (made active, or a month paid). An entry is appended after the
 * subscription is written, so that a reader who finds the entry finds the subscription as it gives the plan. With
 * the kept head below, it is how a member's current plan is found by `_id` only (subscriptions.current.ts).
 */
const planStartSchema = new Schema(
  {
    _id: { type: String, required: true },
    subscriptionId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
export interface PlanStartDoc {
  _id: string;
  subscriptionId: string;
  at: Date;
}
export const PlanStartModel = model<PlanStartDoc>('SubscriptionPlanStart', planStartSchema, 'subscription_plan_starts');

/**
 * A member's kept head (`_id` the member's id): the subscriptions that gave a plan when it was written, as of plan
 * start `upTo`. Best-effort (a write may be lost or land over a newer one): any head written is right for its
 * `upTo`, since a subscription is left out only once it was read not giving its plan, and one can give it again
 * only through a payment, which appends a new start.
 */
const planHeadSchema = new Schema(
  {
    _id: { type: String, required: true },
    upTo: { type: Number, required: true },
    live: { type: [String], default: [] },
  },
  { versionKey: false },
);
export interface PlanHeadDoc {
  _id: string;
  upTo: number;
  live: string[];
}
export const PlanHeadModel = model<PlanHeadDoc>('SubscriptionPlanHead', planHeadSchema, 'subscription_plan_heads');

export const planStarts = numberedChains<Pick<PlanStartDoc, 'subscriptionId'>>(PlanStartModel, {
  separator: '#',
  projection: { subscriptionId: 1 },
  // The head names a start that exists: a process that does not know the chain searches for its end from there.
  hint: async (userId) => {
    const head = await readById<Pick<PlanHeadDoc, 'upTo'>>(PlanHeadModel, userId, { upTo: 1 });
    return head?.upTo ? { n: head.upTo, doc: null } : null;
  },
});

/** Appends a plan start of the member's (after the subscription it names was written so that it gives its plan). */
export async function notePlanStart(userId: string, subscriptionId: string): Promise<number> {
  return (await planStarts.append(userId, () => ({ subscriptionId, at: new Date() }))).n;
}

/**
 * A subscription made already giving its plan (one granted without a provider: by the demo, a script or a test)
 * starts it: written then, on whatever path made it. The ones made through a checkout are pending and start at
 * their first paid month (subscriptions.service.ts).
 */
subscriptionSchema.post('save', async function noteGivenPlan(subscription: SubscriptionDoc) {
  if (givesPlan(subscription)) await notePlanStart(String(subscription.userId), subscription._id);
});

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
