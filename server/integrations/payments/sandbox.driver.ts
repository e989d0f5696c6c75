/**
 * The sandbox provider (the default): a checkout page on our own origin with "Approve payment" and
 * "Decline". Deciding builds the webhook event a provider would send, signs it with the sandbox webhook
 * secret (`Knack-Signature`, the Stripe scheme of signature.ts) and hands the raw bytes to the same webhook
 * handler real providers reach, so the signature check and the idempotent apply are exercised every time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { withLock } from '../../lib/mutex';
import { ours } from '../../lib/query';
import {
  SandboxCheckoutModel,
  SandboxRefundModel,
  SandboxSubscriptionModel,
  type SandboxCheckoutDoc,
  type SandboxRefundDoc,
  type SandboxSubscriptionDoc,
} from './sandbox.model';
import { parseJson, signatureHeader, verifySignature } from './signature';
import { ProviderError, type PaymentProvider, type WebhookEvent } from './payments.types';

export const SANDBOX_SIGNATURE_HEADER = 'knack-signature';
/** Set on the answer that starts a checkout; the checkout page acts only for a browser that carries it. */
export const SANDBOX_PAYER_COOKIE = 'knack_checkout_payer';

type SandboxEventType = Exclude<WebhookEvent['type'], 'ignored'>;

/** The body of a sandbox webhook. Times are Unix seconds, as providers send them. */
interface SandboxEvent {
  id: string;
  type: SandboxEventType;
  created: number;
  data: {
    sessionId?: string | null;
    orderId?: string | null;
    subscriptionId?: string | null;
    providerSubscriptionId?: string | null;
    periodStart?: number | null;
    periodEnd?: number | null;
  };
}

const KNOWN_TYPES = new Set<string>([
  'checkout.completed',
  'checkout.failed',
  'subscription.paid',
  'subscription.payment_failed',
  'subscription.checkout_failed',
  'subscription.ended',
]);

/** The same day of the next month (the month's last day when it has no such day), in UTC. */
export function nextMonth(from: Date): Date {
  const next = new Date(from);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return next;
}

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export interface SignedDelivery {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
}

export interface SandboxProvider extends PaymentProvider {
  kind: 'sandbox';
  checkout(sessionId: string): Promise<SandboxCheckoutDoc | null>;
  /** Whether `cookie` is the proof given to the member who started this checkout. */
  isPayer(checkout: SandboxCheckoutDoc, cookie: unknown): boolean;
  /**
   * Decides an open checkout once (a later submit keeps the first decision) and answers it with the signed
   * webhook of that decision. The event id is fixed per checkout and decision, so a resubmit is a redelivery
   * of the same event, as a provider's retry is: applied once, and again only if the first did not finish.
   */
  decide(sessionId: string, approve: boolean): Promise<{ checkout: SandboxCheckoutDoc; delivery: SignedDelivery } | null>;
  /**
   * Charges the next month of a subscription whose period has ended, as a provider does on its own: the
   * payment goes through (`pay` true) or is declined. Answers the signed webhook of what happened (`ended` for a
   * subscription cancelled at its period's end), or null when it is not due. Each period is charged once.
   */
  renew(providerSubscriptionId: string, pay: boolean, now?: Date): Promise<SignedDelivery | null>;
  /** The sandbox subscriptions whose period has ended by `now`: what a renewal run charges. */
  dueRenewals(now: Date): Promise<string[]>;
}

export function sandboxProvider({ publicUrl, webhookSecret, payerKey }: { publicUrl: string; webhookSecret: string; payerKey: string }): SandboxProvider {
  const payerProof = (sessionId: string, payerId: string) => createHmac('sha256', payerKey).update(`${sessionId}\n${payerId}`).digest('base64url');

  const signed = (event: SandboxEvent): SignedDelivery => {
    const rawBody = Buffer.from(JSON.stringify(event));
    return { rawBody, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signatureHeader(webhookSecret, rawBody) } };
  };

  const subscriptionEvent = (id: string, type: SandboxEventType, subscription: SandboxSubscriptionDoc, sessionId: string | null = null): SandboxEvent => ({
    id,
    type,
    created: unixSeconds(new Date()),
    data: {
      sessionId,
      subscriptionId: subscription.subscriptionId,
      providerSubscriptionId: subscription._id,
      periodStart: unixSeconds(subscription.periodStart),
      periodEnd: unixSeconds(subscription.periodEnd),
    },
  });

  async function openCheckout({ siteUrl = publicUrl, ...request }: Omit<SandboxCheckoutDoc, '_id' | 'status'> & { siteUrl?: string }) {
    const sessionId = `cs_sandbox_${randomBytes(16).toString('hex')}`;
    await SandboxCheckoutModel.create({ _id: sessionId, ...request });
    const path = `/checkout/sandbox/${sessionId}`;
    return { sessionId, url: `${siteUrl}${path}`, payerCookie: { name: SANDBOX_PAYER_COOKIE, value: payerProof(sessionId, request.payerId), path } };
  }

  /** The subscription an approved checkout starts: its first month begins at the approval. Made once per checkout. */
  async function startSubscription(checkout: SandboxCheckoutDoc): Promise<SandboxSubscriptionDoc> {
    const _id = checkout._id.replace(/^cs_/, 'sub_');
    const existing = await SandboxSubscriptionModel.findById(_id).lean<SandboxSubscriptionDoc>();
    if (existing) return existing;
    const periodStart = new Date();
    try {
      await SandboxSubscriptionModel.create({
        _id,
        subscriptionId: checkout.subscriptionId,
        payerId: checkout.payerId,
        amountMicros: checkout.amountMicros,
        period: 1,
        periodStart,
        periodEnd: nextMonth(periodStart),
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return (await SandboxSubscriptionModel.findById(_id).lean<SandboxSubscriptionDoc>())!;
  }

  return {
    kind: 'sandbox',

    /**
     * Anyone who saw the link could approve a checkout without the proof: the cookie comes with the signed-in
     * member's own call that started it, and is sent back only from that browser to this one page.
     */
    createCheckout: (request) => openCheckout({ ...request, mode: 'payment', subscriptionId: null }),

    createSubscriptionCheckout: (request) => openCheckout({ ...request, mode: 'subscription', orderId: null }),

    async setCancelAtPeriodEnd(providerSubscriptionId, cancel) {
      await SandboxSubscriptionModel.updateOne({ _id: providerSubscriptionId, status: 'active' }, { $set: { cancelAtPeriodEnd: cancel } });
    },

    isPayer(checkout, cookie) {
      if (typeof cookie !== 'string') return false;
      const expected = Buffer.from(payerProof(checkout._id, checkout.payerId));
      const given = Buffer.from(cookie);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    parseWebhook(rawBody, headers): WebhookEvent {
      verifySignature(headers[SANDBOX_SIGNATURE_HEADER], rawBody, webhookSecret);
      const event = parseJson<SandboxEvent>(rawBody);
      const type = KNOWN_TYPES.has(event.type) ? event.type : 'ignored';
      const data = event.data ?? {};
      const date = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
      return {
        eventId: String(event.id),
        type,
        sessionId: data.sessionId ?? null,
        orderId: data.orderId ?? null,
        // The sandbox's checkout is the payment itself: a refund names it.
        ...(type === 'checkout.completed' && { paymentId: data.sessionId ?? null }),
        ...(type.startsWith('subscription.') && {
          subscription: {
            subscriptionId: data.subscriptionId ?? null,
            providerSubscriptionId: data.providerSubscriptionId ?? null,
            periodStart: date(data.periodStart),
            periodEnd: date(data.periodEnd),
          },
        }),
      };
    },

    checkout: (sessionId) => SandboxCheckoutModel.findById(sessionId).lean<SandboxCheckoutDoc>(),

    /** Records the refund of a checkout's payment, once per checkout; a later ask answers the first refund. */
    async refund({ key, paymentId, amountMicros, orderId }) {
      const checkout = await SandboxCheckoutModel.findById(paymentId).lean<SandboxCheckoutDoc>();
      if (!checkout || checkout.mode !== 'payment' || checkout.status === 'declined') {
        throw new ProviderError(`The sandbox did not refund: no payment ${paymentId}`);
      }
      if (amountMicros > checkout.amountMicros)
        throw new ProviderError(`The sandbox did not refund: ${paymentId} took less than ${amountMicros} micro-dollars`);
      const _id = `re_${paymentId.replace(/^cs_/, '')}`;
      try {
        await SandboxRefundModel.create({ _id, checkoutId: paymentId, orderId, amountMicros, key, at: new Date() });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const first = await SandboxRefundModel.findById(_id).lean<SandboxRefundDoc>();
        // A checkout is paid back once: another key asking again is told so, as a provider tells a refunded charge.
        if (first?.key !== key) throw new ProviderError(`The sandbox did not refund: ${paymentId} has already been refunded`);
      }
      return { refundId: _id };
    },

    async decide(sessionId, approve) {
      await SandboxCheckoutModel.updateOne({ _id: sessionId, status: 'open' }, { $set: { status: approve ? 'approved' : 'declined' } });
      const checkout = await SandboxCheckoutModel.findById(sessionId).lean<SandboxCheckoutDoc>();
      if (!checkout || checkout.status === 'open') return null;
      const id = `evt_${checkout._id}_${checkout.status}`;
      const approved = checkout.status === 'approved';
      if (checkout.mode === 'subscription') {
        const event: SandboxEvent = approved
          ? subscriptionEvent(id, 'subscription.paid', await startSubscription(checkout), sessionId)
          : { id, type: 'subscription.checkout_failed', created: unixSeconds(new Date()), data: { sessionId, subscriptionId: checkout.subscriptionId } };
        return { checkout, delivery: signed(event) };
      }
      const event: SandboxEvent = {
        id,
        type: approved ? 'checkout.completed' : 'checkout.failed',
        created: unixSeconds(new Date()),
        data: { sessionId, orderId: checkout.orderId },
      };
      return { checkout, delivery: signed(event) };
    },

    renew(providerSubscriptionId, pay, now = new Date()) {
      return withLock(`sandbox-subscription:${providerSubscriptionId}`, async () => {
        const subscription = await SandboxSubscriptionModel.findById(providerSubscriptionId).lean<SandboxSubscriptionDoc>();
        if (!subscription || subscription.status !== 'active' || subscription.periodEnd > now) return null;
        const next = subscription.period + 1;
        if (subscription.cancelAtPeriodEnd || !pay) {
          await SandboxSubscriptionModel.updateOne({ _id: subscription._id }, { $set: { status: 'ended' } });
          const type = subscription.cancelAtPeriodEnd ? 'subscription.ended' : 'subscription.payment_failed';
          return signed(subscriptionEvent(`evt_${subscription._id}_${type}_${next}`, type, subscription));
        }
        const periodStart = subscription.periodEnd;
        const renewed = await SandboxSubscriptionModel.findByIdAndUpdate(
          subscription._id,
          { $set: { period: next, periodStart, periodEnd: nextMonth(periodStart) } },
          { new: true },
        ).lean<SandboxSubscriptionDoc>();
        return signed(subscriptionEvent(`evt_${subscription._id}_paid_${next}`, 'subscription.paid', renewed!));
      });
    },

    async dueRenewals(now) {
      const due = await SandboxSubscriptionModel.find(ours({ status: 'active', periodEnd: { $lte: now } }), { _id: 1 }).lean();
      return due.map(({ _id }) => _id);
    },
  };
}
