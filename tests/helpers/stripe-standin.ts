/**
 * A loopback stand-in for the part of Stripe's API Knack uses, speaking the real API over HTTP:
 * `POST /v1/checkout/sessions` (form-encoded, `Authorization: Bearer sk_…`, `Idempotency-Key` replays the
 * first answer, Stripe's error shape on a bad key or a missing parameter), `POST /v1/refunds` (a refund of a
 * paid session's PaymentIntent, never more than was paid, `Idempotency-Key` replays the first answer), and
 * events signed the way Stripe signs webhooks (`Stripe-Signature: t=…,v1=HMAC-SHA256("{t}.{payload}")`),
 * computed here independently of the server's code.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeSessionRequest {
  headers: http.IncomingHttpHeaders;
  form: Record<string, string>;
}

export interface StripeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  /** Set once the session is paid (`paid(session)`): what a refund names. */
  payment_intent: string | null;
}

/** A refund as Stripe answers it, and the Idempotency-Key it was asked with. */
export interface StripeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  reason: string | null;
  metadata: Record<string, string>;
  status: 'succeeded';
  idempotencyKey: string | null;
}

const REQUIRED = [
  'mode',
  'line_items[0][price_data][currency]',
  'line_items[0][price_data][unit_amount]',
  'line_items[0][price_data][product_data][name]',
  'line_items[0][quantity]',
  'success_url',
  'cancel_url',
];

export async function startStripeStandIn({ secretKey, webhookSecret }: { secretKey: string; webhookSecret: string }) {
  const requests: StripeSessionRequest[] = [];
  const byIdempotencyKey = new Map<string, StripeSession>();
  const sessions = new Map<string, StripeSession>();
  /** PaymentIntents of paid sessions: what was paid and what has been refunded of it, in cents. */
  const payments = new Map<string, { amount: number; currency: string; refunded: number }>();
  const refunds: StripeRefund[] = [];
  const refundsByIdempotencyKey = new Map<string, StripeRefund>();
  let failRefunds = 0;
  /** How many next checkout answers are held back (the session made, the answer lost on its way, as in a timeout). */
  let holdCheckouts = 0;
  /** Answers held back, by Idempotency-Key: given when the caller asks again with that key (it has timed out by then). */
  const heldAnswers = new Map<string, () => void>();
  /** Webhook deliveries, as Stripe makes them: every attempt, and the events not yet accepted (answered other than 2xx). */
  const deliveries: { eventId: string; status: number }[] = [];
  const undelivered = new Map<string, { url: string; event: { payload: string; header: string } }>();

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${randomBytes(6).toString('hex')}` });
      res.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const subscriptionPath = req.method === 'POST' && req.url?.match(/^\/v1\/subscriptions\/(sub_[A-Za-z0-9_]+)$/);
      if (subscriptionPath && req.headers.authorization === `Bearer ${secretKey}`) {
        // Updating a subscription (cancel_at_period_end): recorded, and answered as Stripe does.
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        requests.push({ headers: { ...req.headers, path: req.url }, form });
        return send(200, { id: subscriptionPath[1], object: 'subscription', cancel_at_period_end: form.cancel_at_period_end === 'true' });
      }
      if (req.method === 'POST' && req.url === '/v1/refunds') return refund(req, Buffer.concat(chunks).toString('utf8'), send);
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
        return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url}).` } });
      }
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
      }
      if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
        return send(400, { error: { type: 'invalid_request_error', message: 'Invalid request: expected a form-encoded body.' } });
      }
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      requests.push({ headers: req.headers, form });
      const missing = REQUIRED.find((name) => !form[name]);
      if (missing) return send(400, { error: { type: 'invalid_request_error', message: `Missing required param: ${missing}.`, param: missing } });
      const unitAmount = Number(form['line_items[0][price_data][unit_amount]']);
      if (!Number.isInteger(unitAmount) || unitAmount < 1) {
        return send(400, {
          error: { type: 'invalid_request_error', message: 'Invalid integer: unit_amount', param: 'line_items[0][price_data][unit_amount]' },
        });
      }
      const key = req.headers['idempotency-key'];
      const replay = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
      if (replay) {
        heldAnswers.get(key as string)?.();
        heldAnswers.delete(key as string);
        return send(200, replay);
      }
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const session: StripeSession = {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.com/c/pay/${id}`,
        mode: form.mode!,
        amount_total: unitAmount * Number(form['line_items[0][quantity]']),
        currency: form['line_items[0][price_data][currency]']!,
        client_reference_id: form.client_reference_id ?? null,
        metadata: Object.fromEntries(Object.entries(form).flatMap(([name, value]) => (name.startsWith('metadata[') ? [[name.slice(9, -1), value]] : []))),
        payment_status: 'unpaid',
        status: 'open',
        payment_intent: null,
      };
      sessions.set(id, session);
      if (typeof key === 'string') byIdempotencyKey.set(key, session);
      if (holdCheckouts > 0 && typeof key === 'string') {
        holdCheckouts -= 1;
        heldAnswers.set(key, () => send(200, session));
        return;
      }
      send(200, session);
    });
  });
  /** `POST /v1/refunds`: the whole payment or `amount` cents of it, once per Idempotency-Key, never more than was paid. */
  function refund(req: http.IncomingMessage, body: string, send: (status: number, body: unknown) => void) {
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
    }
    const form = Object.fromEntries(new URLSearchParams(body));
    requests.push({ headers: { ...req.headers, path: req.url }, form });
    if (failRefunds > 0) {
      failRefunds -= 1;
      return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
    }
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const replay = key ? refundsByIdempotencyKey.get(key) : undefined;
    if (replay) return send(200, replay);
    const intent = form.payment_intent;
    if (!intent)
      return send(400, {
        error: { type: 'invalid_request_error', message: 'One of the following params should be provided for this request: payment_intent or charge.' },
      });
    const payment = payments.get(intent);
    if (!payment) {
      return send(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${intent}'`, param: 'payment_intent' },
      });
    }
    const left = payment.amount - payment.refunded;
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (left === 0) {
      return send(400, {
        error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ch_${intent.slice(3)} has already been refunded.` },
      });
    }
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      return send(400, {
        error: {
          type: 'invalid_request_error',
          code: 'amount_too_large',
          message: `Refund amount ($${amount / 100}) is greater than unrefunded amount on charge ($${left / 100})`,
          param: 'amount',
        },
      });
    }
    payment.refunded += amount;
    const made: StripeRefund = {
      id: `re_${randomBytes(12).toString('hex')}`,
      object: 'refund',
      amount,
      currency: payment.currency,
      payment_intent: intent,
      reason: form.reason ?? null,
      metadata: Object.fromEntries(Object.entries(form).flatMap(([name, value]) => (name.startsWith('metadata[') ? [[name.slice(9, -1), value]] : []))),
      status: 'succeeded',
      idempotencyKey: key,
    };
    refunds.push(made);
    if (key) refundsByIdempotencyKey.set(key, made);
    const { idempotencyKey: _key, ...answer } = made;
    send(200, answer);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A Stripe event about a session, as Stripe would POST it: the payload and its signature header. */
  function event(type: string, session: StripeSession, changes: Partial<StripeSession> = {}, options: { secret?: string; timestamp?: number } = {}) {
    return eventAbout(type, { ...session, ...changes }, options);
  }

  /** A Stripe event about any object (an invoice, a subscription), signed as Stripe signs it. */
  function eventAbout(type: string, object: object, options: { secret?: string; timestamp?: number; id?: string } = {}) {
    const payload = JSON.stringify({
      id: options.id ?? `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-03-31.basil',
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object },
      livemode: false,
    });
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', options.secret ?? webhookSecret)
      .update(`${timestamp}.${payload}`)
      .digest('hex');
    return { payload, header: `t=${timestamp},v1=${signature}` };
  }

  /** The session's payer paid: its PaymentIntent is made, and the changes to send in its completed event are answered. */
  function paid(session: StripeSession): Partial<StripeSession> {
    const intent = `pi_${randomBytes(12).toString('hex')}`;
    payments.set(intent, { amount: session.amount_total, currency: session.currency, refunded: 0 });
    const changes = { payment_status: 'paid' as const, status: 'complete' as const, payment_intent: intent };
    Object.assign(session, changes);
    return changes;
  }

  return {
    url,
    requests,
    /** Every refund made, in order. */
    refunds,
    session: (id: string) => sessions.get(id),
    /** Every session made, in order. */
    sessions: () => [...sessions.values()],
    paid,
    /**
     * The next `n` checkout sessions are made, but their answers are held back until the caller asks again with
     * the same Idempotency-Key: a first attempt that times out although Stripe did the work.
     */
    holdCheckouts(n: number) {
      holdCheckouts = n;
    },
    /** How many answers are held back now. */
    heldCount: () => heldAnswers.size,
    /** Gives every answer held back now (to a caller still waiting for it). */
    releaseHeld() {
      for (const answer of heldAnswers.values()) answer();
      heldAnswers.clear();
    },
    /** Every webhook delivery attempt, in order. */
    deliveries,
    /**
     * POSTs a signed event to `url` as Stripe delivers it; an answer other than 2xx leaves it to be delivered
     * again (`redeliver`), as Stripe retries a failed delivery.
     */
    async deliver(url: string, event: { payload: string; header: string }) {
      const eventId = (JSON.parse(event.payload) as { id: string }).id;
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.header },
        body: event.payload,
      });
      deliveries.push({ eventId, status: answer.status });
      if (answer.ok) undelivered.delete(eventId);
      else undelivered.set(eventId, { url, event });
      return { status: answer.status, headers: answer.headers, body: (await answer.json()) as unknown };
    },
    /** Stripe's retry: delivers once more every event not yet accepted; answers how many were tried. */
    async redeliver() {
      const pending = [...undelivered.values()];
      for (const { url, event } of pending) await this.deliver(url, event);
      return pending.length;
    },
    /** The next `n` refund calls answer Stripe's 500. */
    failRefunds(n: number) {
      failRefunds = n;
    },
    event,
    eventAbout,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
