/**
 * The payment provider interface: a checkout for an order, and the provider's signed webhooks turned into our
 * few events. Drivers: the sandbox (a local checkout page, the default) and Stripe Checkout
 * (STRIPE_SECRET_KEY).
 */
import type { IncomingHttpHeaders } from 'node:http';

export type ProviderKind = 'sandbox' | 'stripe';

/** What every checkout says: who pays, how much, for what, and where the payer's browser goes after. */
interface CheckoutTerms {
  /** The member who pays: only they may decide a sandbox checkout. */
  payerId: string;
  /** Whole cents (fees and plan prices are), in micro-dollars: the one payment, or one month of a subscription. */
  amountMicros: number;
  currency: 'usd';
  description: string;
  successUrl: string;
  cancelUrl: string;
  /**
   * The site's address as the payer uses it (one of the public origins): the sandbox's checkout page is put on
   * it, so that the payer cookie set by the paying call on that origin comes back to the page. Default PUBLIC_URL.
   */
  siteUrl?: string;
}

/** A one-time payment for an order. */
export interface CheckoutRequest extends CheckoutTerms {
  orderId: string;
}

/** A monthly subscription to a plan: the provider charges every period until it is cancelled. */
export interface SubscriptionCheckoutRequest extends CheckoutTerms {
  /** Our subscription's id: every event of this subscription carries it back. */
  subscriptionId: string;
}

export interface Checkout {
  /** The provider's id of the checkout (Stripe's `cs_…`). */
  sessionId: string;
  /** Where the payer's browser goes to pay. */
  url: string;
  /** A cookie the payer's browser must carry to the checkout page (the sandbox's proof of who is paying). */
  payerCookie?: PayerCookie;
}

export interface PayerCookie {
  name: string;
  value: string;
  /** The checkout page's own path, so that the cookie goes nowhere else. */
  path: string;
}

/**
 * What a verified webhook says. For a one-time order: the money came in (`checkout.completed`) or the
 * checkout ended without it (`checkout.failed`). For a subscription: a period was paid (`subscription.paid`,
 * the first one or a renewal), a renewal's payment failed (`subscription.payment_failed`), its checkout
 * ended unpaid (`subscription.checkout_failed`), or the provider ended it (`subscription.ended`). Anything
 * else is `ignored` (still answered 200 so it is not resent).
 */
export interface WebhookEvent {
  eventId: string;
  type:
    | 'checkout.completed'
    | 'checkout.failed'
    | 'subscription.paid'
    | 'subscription.payment_failed'
    | 'subscription.checkout_failed'
    | 'subscription.ended'
    | 'ignored';
  sessionId: string | null;
  orderId: string | null;
  /**
   * The provider's id of the payment a one-time checkout took (Stripe's PaymentIntent, the sandbox's checkout):
   * what a refund names. Set on `checkout.completed` when the provider says it.
   */
  paymentId?: string | null;
  /** Set on the subscription events. */
  subscription?: SubscriptionEventFacts;
}

export interface SubscriptionEventFacts {
  /** Our subscription's id, as given to the checkout. */
  subscriptionId: string | null;
  /** The provider's own id of the subscription (to cancel it there). */
  providerSubscriptionId: string | null;
  /** The paid period (`subscription.paid` only): its start tells one period's credits from the next's. */
  periodStart: Date | null;
  periodEnd: Date | null;
}

export const isSubscriptionEvent = (event: WebhookEvent) => event.type.startsWith('subscription.');

export interface PaymentProvider {
  kind: ProviderKind;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** A checkout that starts a monthly subscription. */
  createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<Checkout>;
  /** Stops (or, with `false`, resumes) the renewals of a subscription; it runs to the end of the paid period. */
  setCancelAtPeriodEnd(providerSubscriptionId: string, cancel: boolean): Promise<void>;
  /** Verifies the signature over the raw bytes, then reads the event. Throws SignatureError when it is bad. */
  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): WebhookEvent;
  /**
   * Pays a one-time payment back in full. `key` is the provider's idempotency key: asked again with the same key
   * (a retry, a concurrent twin), the provider answers the first refund and moves no more money. Throws
   * ProviderError when the provider cannot be reached or refuses.
   */
  refund(request: RefundRequest): Promise<Refund>;
}

export interface RefundRequest {
  key: string;
  /** The payment to pay back (WebhookEvent.paymentId). */
  paymentId: string;
  /** All of it: what the order charged. */
  amountMicros: number;
  /** Our order, for the provider's records. */
  orderId: string;
}

export interface Refund {
  /** The provider's id of the refund (Stripe's `re_…`). */
  refundId: string;
}

/** A webhook whose signature is missing, wrong or too old: nothing it says may be applied. */
export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}

/** The provider could not be reached or refused the checkout. */
export class ProviderError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'ProviderError';
  }
}
