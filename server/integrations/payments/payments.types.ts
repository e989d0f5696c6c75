/**
 * The payment provider interface: a checkout for an order, and the provider's signed webhooks turned into our
 * few events. Drivers: the sandbox (a local checkout page, the default) and Stripe Checkout
 * (STRIPE_SECRET_KEY).
 */
import type { IncomingHttpHeaders } from 'node:http';

export type ProviderKind = 'sandbox' | 'stripe';

export interface CheckoutRequest {
  orderId: string;
  /** The member who pays: only they may decide a sandbox checkout. */
  payerId: string;
  /** Whole cents (fees are), in micro-dollars. */
  amountMicros: number;
  currency: 'usd';
  description: string;
  successUrl: string;
  cancelUrl: string;
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
 * What a verified webhook says: the money came in (`checkout.completed`), the checkout ended without it
 * (`checkout.failed`), or something we do not act on (`ignored`; still answered 200 so it is not resent).
 */
export interface WebhookEvent {
  eventId: string;
  type: 'checkout.completed' | 'checkout.failed' | 'ignored';
  sessionId: string | null;
  orderId: string | null;
}

export interface PaymentProvider {
  kind: ProviderKind;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** Verifies the signature over the raw bytes, then reads the event. Throws SignatureError when it is bad. */
  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): WebhookEvent;
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
