import { Schema, model } from 'mongoose';

/**
 * The sandbox provider's checkouts (what the local checkout page shows), kept in the database so that any
 * instance can serve the page. `status` moves once, from open to approved or declined.
 */
const sandboxCheckoutSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** A one-time payment for an order, or the first month of a subscription. */
    mode: { type: String, enum: ['payment', 'subscription'], default: 'payment' },
    orderId: { type: String, default: null },
    subscriptionId: { type: String, default: null },
    payerId: { type: String, required: true },
    amountMicros: { type: Number, required: true },
    currency: { type: String, required: true },
    description: { type: String, required: true },
    successUrl: { type: String, required: true },
    cancelUrl: { type: String, required: true },
    status: { type: String, enum: ['open', 'approved', 'declined'], default: 'open' },
  },
  { timestamps: true, versionKey: false },
);

export interface SandboxCheckoutDoc {
  _id: string;
  mode: 'payment' | 'subscription';
  orderId: string | null;
  subscriptionId: string | null;
  payerId: string;
  amountMicros: number;
  currency: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'approved' | 'declined';
}

export const SandboxCheckoutModel = model<SandboxCheckoutDoc>('SandboxCheckout', sandboxCheckoutSchema, 'sandbox_checkouts');

/**
 * A subscription the sandbox charges monthly, made when its checkout is approved: `_id` is the sandbox's own
 * subscription id (`sub_sandbox_…`, derived from the checkout), `subscriptionId` ours. `period` counts the paid
 * months; each renewal moves the period on by one month.
 */
const sandboxSubscriptionSchema = new Schema(
  {
    _id: { type: String, required: true },
    subscriptionId: { type: String, required: true },
    payerId: { type: String, required: true },
    amountMicros: { type: Number, required: true },
    period: { type: Number, required: true },
    periodStart: { type: Date, required: true },
    periodEnd: { type: Date, required: true },
    cancelAtPeriodEnd: { type: Boolean, default: false },
    status: { type: String, enum: ['active', 'ended'], default: 'active' },
  },
  { timestamps: true, versionKey: false },
);

export interface SandboxSubscriptionDoc {
  _id: string;
  subscriptionId: string;
  payerId: string;
  amountMicros: number;
  period: number;
  periodStart: Date;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
  status: 'active' | 'ended';
}

export const SandboxSubscriptionModel = model<SandboxSubscriptionDoc>('SandboxSubscription', sandboxSubscriptionSchema, 'sandbox_subscriptions');

/**
 * A payment the sandbox paid back, one per checkout: `_id` is the refund's id, made from the checkout's, so that
 * a checkout can be refunded once however many callers ask at once (the insert of that `_id` is the exclusive step).
 */
const sandboxRefundSchema = new Schema(
  {
    _id: { type: String, required: true },
    checkoutId: { type: String, required: true },
    orderId: { type: String, required: true },
    amountMicros: { type: Number, required: true },
    /** The idempotency key it was asked with. */
    key: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface SandboxRefundDoc {
  _id: string;
  checkoutId: string;
  orderId: string;
  amountMicros: number;
  key: string;
  at: Date;
}

export const SandboxRefundModel = model<SandboxRefundDoc>('SandboxRefund', sandboxRefundSchema, 'sandbox_refunds');
