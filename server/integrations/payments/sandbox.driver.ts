/**
 * The sandbox provider (the default): a checkout page on our own origin with "Approve payment" and
 * "Decline". Deciding builds the webhook event a provider would send, signs it with the sandbox webhook
 * secret (`Knack-Signature`, the Stripe scheme of signature.ts) and hands the raw bytes to the same webhook
 * handler real providers reach, so the signature check and the idempotent apply are exercised every time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SandboxCheckoutModel, type SandboxCheckoutDoc } from './sandbox.model';
import { parseJson, signatureHeader, verifySignature } from './signature';
import type { PaymentProvider, WebhookEvent } from './payments.types';

export const SANDBOX_SIGNATURE_HEADER = 'knack-signature';
/** Set on the answer that starts a checkout; the checkout page acts only for a browser that carries it. */
export const SANDBOX_PAYER_COOKIE = 'knack_checkout_payer';

/** The body of a sandbox webhook. */
interface SandboxEvent {
  id: string;
  type: 'checkout.completed' | 'checkout.failed';
  created: number;
  data: { sessionId: string; orderId: string };
}

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
}

export function sandboxProvider({ publicUrl, webhookSecret, payerKey }: { publicUrl: string; webhookSecret: string; payerKey: string }): SandboxProvider {
  const payerProof = (sessionId: string, payerId: string) => createHmac('sha256', payerKey).update(`${sessionId}\n${payerId}`).digest('base64url');

  return {
    kind: 'sandbox',

    /**
     * Anyone who saw the link could approve a checkout without the proof: the cookie comes with the signed-in
     * member's own call that started it, and is sent back only from that browser to this one page.
     */
    async createCheckout(request) {
      const sessionId = `cs_sandbox_${randomBytes(16).toString('hex')}`;
      await SandboxCheckoutModel.create({ _id: sessionId, ...request });
      const path = `/checkout/sandbox/${sessionId}`;
      return { sessionId, url: `${publicUrl}${path}`, payerCookie: { name: SANDBOX_PAYER_COOKIE, value: payerProof(sessionId, request.payerId), path } };
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
      const known = event.type === 'checkout.completed' || event.type === 'checkout.failed';
      return {
        eventId: String(event.id),
        type: known ? event.type : 'ignored',
        sessionId: event.data?.sessionId ?? null,
        orderId: event.data?.orderId ?? null,
      };
    },

    checkout: (sessionId) => SandboxCheckoutModel.findById(sessionId).lean<SandboxCheckoutDoc>(),

    async decide(sessionId, approve) {
      await SandboxCheckoutModel.updateOne({ _id: sessionId, status: 'open' }, { $set: { status: approve ? 'approved' : 'declined' } });
      const checkout = await SandboxCheckoutModel.findById(sessionId).lean<SandboxCheckoutDoc>();
      if (!checkout || checkout.status === 'open') return null;
      const event: SandboxEvent = {
        id: `evt_${checkout._id}_${checkout.status}`,
        type: checkout.status === 'approved' ? 'checkout.completed' : 'checkout.failed',
        created: Math.floor(Date.now() / 1000),
        data: { sessionId, orderId: checkout.orderId },
      };
      const rawBody = Buffer.from(JSON.stringify(event));
      return {
        checkout,
        delivery: { rawBody, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signatureHeader(webhookSecret, rawBody) } },
      };
    },
  };
}
