/**
 * Stripe Checkout through its REST API (no SDK): a Checkout Session per order, created with the order id as
 * Idempotency-Key (a retried create answers the same session), and Stripe's signed webhooks
 * (`Stripe-Signature`, the scheme of signature.ts). Events: `checkout.session.completed` with the payment
 * made, or `checkout.session.async_payment_succeeded` -> completed; `checkout.session.expired` and
 * `checkout.session.async_payment_failed` -> failed. Subscriptions (Checkout in subscription mode, our
 * subscription id in the subscription's metadata): `invoice.paid` -> a period paid (the first one or a
 * renewal), `invoice.payment_failed` -> a renewal failed, `customer.subscription.deleted` -> ended, and an
 * expired subscription checkout -> its checkout failed. Anything else is ignored. Refunds: `POST /v1/refunds` of
 * the session's PaymentIntent, with our idempotency key.
 */
import axios from 'axios';
import { PROVIDER_TIMEOUT_MS, withProviderRetries } from '../../lib/provider-retry';
import { ProviderError, type PaymentProvider, type SubscriptionEventFacts, type WebhookEvent } from './payments.types';
import { parseJson, verifySignature } from './signature';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** https://api.stripe.com, or a stand-in in tests. */
  apiUrl: string;
  /** How long one attempt waits for Stripe's answer; default PROVIDER_TIMEOUT_MS. */
  timeoutMs?: number;
}

const MICROS_PER_CENT = 10_000;

/** The part of a Stripe event we read: a Checkout Session, an Invoice or a Subscription, by the event's type. */
interface StripeObject {
  id?: string;
  mode?: string;
  client_reference_id?: string | null;
  metadata?: { orderId?: string; subscriptionId?: string };
  payment_status?: string;
  /** A paid one-time session's PaymentIntent: what a refund names. */
  payment_intent?: string | null;
  /** A subscription checkout's subscription; an invoice's subscription (API versions before 2025-03). */
  subscription?: string | null;
  subscription_details?: { metadata?: { subscriptionId?: string } } | null;
  /** Where newer API versions put an invoice's subscription. */
  parent?: { subscription_details?: { subscription?: string; metadata?: { subscriptionId?: string } } | null } | null;
  lines?: { data?: { period?: { start?: number; end?: number } }[] };
}

interface StripeEvent {
  id: string;
  type: string;
  data?: { object?: StripeObject };
}

const SUBSCRIPTION_EVENTS: Partial<Record<string, WebhookEvent['type']>> = {
  'invoice.paid': 'subscription.paid',
  'invoice.payment_failed': 'subscription.payment_failed',
  'customer.subscription.deleted': 'subscription.ended',
};

/** Our subscription id and the periods, wherever this kind of object keeps them. */
function subscriptionFacts(event: StripeEvent): SubscriptionEventFacts {
  const object = event.data?.object ?? {};
  const isSubscription = event.type.startsWith('customer.subscription.');
  const period = object.lines?.data?.[0]?.period;
  const date = (seconds: number | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
  return {
    subscriptionId:
      object.parent?.subscription_details?.metadata?.subscriptionId ??
      object.subscription_details?.metadata?.subscriptionId ??
      object.metadata?.subscriptionId ??
      (object.mode === 'subscription' ? (object.client_reference_id ?? null) : null),
    providerSubscriptionId: isSubscription ? (object.id ?? null) : (object.parent?.subscription_details?.subscription ?? object.subscription ?? null),
    periodStart: date(period?.start),
    periodEnd: date(period?.end),
  };
}

function eventType(event: StripeEvent): WebhookEvent['type'] {
  const session = event.data?.object;
  const subscriptionEvent = SUBSCRIPTION_EVENTS[event.type];
  if (subscriptionEvent) return subscriptionEvent;
  if (session?.mode === 'subscription') {
    // The subscription's invoice events say when money came; an expired subscription checkout never paid.
    return event.type === 'checkout.session.expired' ? 'subscription.checkout_failed' : 'ignored';
  }
  switch (event.type) {
    case 'checkout.session.completed':
      // With a delayed method (bank debit) the session completes unpaid; the money comes with a later event.
      return session?.payment_status === 'paid' || session?.payment_status === 'no_payment_required' ? 'checkout.completed' : 'ignored';
    case 'checkout.session.async_payment_succeeded':
      return 'checkout.completed';
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed':
      return 'checkout.failed';
    default:
      return 'ignored';
  }
}

export function stripeProvider({ secretKey, webhookSecret, apiUrl, timeoutMs = PROVIDER_TIMEOUT_MS }: StripeOptions): PaymentProvider {
  const cents = (amountMicros: number) => {
    if (!Number.isSafeInteger(amountMicros) || amountMicros <= 0 || amountMicros % MICROS_PER_CENT !== 0) {
      throw new RangeError(`Stripe charges whole cents; got ${amountMicros} micro-dollars`);
    }
    return String(amountMicros / MICROS_PER_CENT);
  };

  /**
   * A form POST to Stripe's API, sent again with the same Idempotency-Key when it times out or Stripe fails for
   * a moment (lib/provider-retry.ts); its error message, never the key, goes into the ProviderError.
   */
  async function call<T>(what: string, path: string, form: URLSearchParams, idempotencyKey?: string): Promise<T> {
    try {
      const { data } = await withProviderRetries(() =>
        axios.post<T>(`${apiUrl}${path}`, form.toString(), {
          headers: {
            Authorization: `Bearer ${secretKey}`,
            'Content-Type': 'application/x-www-form-urlencoded',
            ...(idempotencyKey && { 'Idempotency-Key': idempotencyKey }),
          },
          timeout: timeoutMs,
        }),
      );
      return data;
    } catch (err) {
      const stripeMessage = axios.isAxiosError(err) ? (err.response?.data as { error?: { message?: string } } | undefined)?.error?.message : undefined;
      throw new ProviderError(`Stripe did not ${what}: ${stripeMessage ?? (err as Error).message}`, err);
    }
  }

  async function session(form: URLSearchParams, idempotencyKey: string) {
    const data = await call<{ id?: string; url?: string }>('create the checkout', '/v1/checkout/sessions', form, idempotencyKey);
    if (!data?.id || !data.url) throw new ProviderError('Stripe did not create the checkout: it answered a session without id or url');
    return { sessionId: data.id, url: data.url };
  }

  return {
    kind: 'stripe',

    createCheckout({ orderId, amountMicros, currency, description, successUrl, cancelUrl }) {
      const form = new URLSearchParams({
        mode: 'payment',
        'line_items[0][price_data][currency]': currency,
        'line_items[0][price_data][unit_amount]': cents(amountMicros),
        'line_items[0][price_data][product_data][name]': description,
        'line_items[0][quantity]': '1',
        success_url: successUrl,
        cancel_url: cancelUrl,
        client_reference_id: orderId,
        'metadata[orderId]': orderId,
      });
      return session(form, orderId);
    },

    createSubscriptionCheckout({ subscriptionId, amountMicros, currency, description, successUrl, cancelUrl }) {
      const form = new URLSearchParams({
        mode: 'subscription',
        'line_items[0][price_data][currency]': currency,
        'line_items[0][price_data][unit_amount]': cents(amountMicros),
        'line_items[0][price_data][recurring][interval]': 'month',
        'line_items[0][price_data][product_data][name]': description,
        'line_items[0][quantity]': '1',
        success_url: successUrl,
        cancel_url: cancelUrl,
        client_reference_id: subscriptionId,
        'metadata[subscriptionId]': subscriptionId,
        // Invoices carry the subscription's metadata: that is how a renewal finds our subscription.
        'subscription_data[metadata][subscriptionId]': subscriptionId,
      });
      return session(form, subscriptionId);
    },

    async setCancelAtPeriodEnd(providerSubscriptionId, cancel) {
      const form = new URLSearchParams({ cancel_at_period_end: String(cancel) });
      await call('change the subscription', `/v1/subscriptions/${encodeURIComponent(providerSubscriptionId)}`, form);
    },

    parseWebhook(rawBody, headers): WebhookEvent {
      verifySignature(headers['stripe-signature'], rawBody, webhookSecret);
      const event = parseJson<StripeEvent>(rawBody);
      const object = event.data?.object;
      const type = eventType(event);
      if (type.startsWith('subscription.')) return { eventId: String(event.id), type, sessionId: null, orderId: null, subscription: subscriptionFacts(event) };
      return {
        eventId: String(event.id),
        type,
        sessionId: object?.id ?? null,
        orderId: object?.metadata?.orderId ?? object?.client_reference_id ?? null,
        paymentId: object?.payment_intent ?? null,
      };
    },

    async refund({ key, paymentId, amountMicros, orderId }) {
      // 'duplicate': the member paid for a piece that another payment had listed already.
      const form = new URLSearchParams({ payment_intent: paymentId, amount: cents(amountMicros), reason: 'duplicate', 'metadata[orderId]': orderId });
      const data = await call<{ id?: string }>('refund the payment', '/v1/refunds', form, key);
      if (!data?.id) throw new ProviderError('Stripe did not refund the payment: it answered a refund without id');
      return { refundId: data.id };
    },
  };
}
