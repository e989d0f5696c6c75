/**
 * Stripe Checkout through its REST API (no SDK): a Checkout Session per order, created with the order id as
 * Idempotency-Key (a retried create answers the same session), and Stripe's signed webhooks
 * (`Stripe-Signature`, the scheme of signature.ts). Events: `checkout.session.completed` with the payment
 * made, or `checkout.session.async_payment_succeeded` -> completed; `checkout.session.expired` and
 * `checkout.session.async_payment_failed` -> failed; anything else is ignored.
 */
import axios from 'axios';
import { ProviderError, type PaymentProvider, type WebhookEvent } from './payments.types';
import { parseJson, verifySignature } from './signature';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** https://api.stripe.com, or a stand-in in tests. */
  apiUrl: string;
}

const MICROS_PER_CENT = 10_000;

/** The part of a Stripe event we read. */
interface StripeEvent {
  id: string;
  type: string;
  data?: { object?: { id?: string; client_reference_id?: string | null; metadata?: { orderId?: string }; payment_status?: string } };
}

function eventType(event: StripeEvent): WebhookEvent['type'] {
  const session = event.data?.object;
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

export function stripeProvider({ secretKey, webhookSecret, apiUrl }: StripeOptions): PaymentProvider {
  return {
    kind: 'stripe',

    async createCheckout({ orderId, amountMicros, currency, description, successUrl, cancelUrl }) {
      if (!Number.isSafeInteger(amountMicros) || amountMicros <= 0 || amountMicros % MICROS_PER_CENT !== 0) {
        throw new RangeError(`Stripe charges whole cents; got ${amountMicros} micro-dollars`);
      }
      const form = new URLSearchParams({
        mode: 'payment',
        'line_items[0][price_data][currency]': currency,
        'line_items[0][price_data][unit_amount]': String(amountMicros / MICROS_PER_CENT),
        'line_items[0][price_data][product_data][name]': description,
        'line_items[0][quantity]': '1',
        success_url: successUrl,
        cancel_url: cancelUrl,
        client_reference_id: orderId,
        'metadata[orderId]': orderId,
      });
      try {
        const { data } = await axios.post<{ id: string; url: string }>(`${apiUrl}/v1/checkout/sessions`, form.toString(), {
          headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': orderId },
          timeout: 15_000,
        });
        if (!data?.id || !data.url) throw new Error('Stripe answered a session without id or url');
        return { sessionId: data.id, url: data.url };
      } catch (err) {
        // Stripe's error message helps the operator; the key never appears in it.
        const stripeMessage = axios.isAxiosError(err) ? (err.response?.data as { error?: { message?: string } } | undefined)?.error?.message : undefined;
        throw new ProviderError(`Stripe did not create the checkout: ${stripeMessage ?? (err as Error).message}`, err);
      }
    },

    parseWebhook(rawBody, headers): WebhookEvent {
      verifySignature(headers['stripe-signature'], rawBody, webhookSecret);
      const event = parseJson<StripeEvent>(rawBody);
      const session = event.data?.object;
      return {
        eventId: String(event.id),
        type: eventType(event),
        sessionId: session?.id ?? null,
        orderId: session?.metadata?.orderId ?? session?.client_reference_id ?? null,
      };
    },
  };
}
