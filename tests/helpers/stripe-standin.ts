/**
 * A loopback stand-in for the part of Stripe's API Knack uses, speaking the real API over HTTP:
 * `POST /v1/checkout/sessions` (form-encoded, `Authorization: Bearer sk_…`, `Idempotency-Key` replays the
 * first answer, Stripe's error shape on a bad key or a missing parameter), and events signed the way Stripe
 * signs webhooks (`Stripe-Signature: t=…,v1=HMAC-SHA256("{t}.{payload}")`), computed here independently of
 * the server's code.
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
      if (replay) return send(200, replay);
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
      };
      sessions.set(id, session);
      if (typeof key === 'string') byIdempotencyKey.set(key, session);
      send(200, session);
    });
  });
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

  return {
    url,
    requests,
    session: (id: string) => sessions.get(id),
    event,
    eventAbout,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
