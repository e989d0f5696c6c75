/**
 * A stand-in for PayPal's REST API on loopback, speaking the part Knack uses: the OAuth2 client-credentials
 * token (`POST /v1/oauth2/token`, HTTP Basic client id and secret) and Payouts (`POST /v1/payments/payouts`,
 * Bearer token). Like PayPal, a repeated `PayPal-Request-Id` answers the first batch again, and a
 * `sender_batch_id` used before with another request id is refused.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PayoutCall {
  requestId: string | undefined;
  body: {
    sender_batch_header: { sender_batch_id: string; email_subject?: string; email_message?: string };
    items: { recipient_type: string; amount: { value: string; currency: string }; receiver: string; note?: string; sender_item_id?: string }[];
  };
}

export async function startPayPalStandIn(clientId: string, clientSecret: string) {
  const tokens = new Set<string>();
  const tokenCalls: { grantType: string | null }[] = [];
  const payoutCalls: PayoutCall[] = [];
  const batches = new Map<string, { requestId: string | undefined; answer: unknown }>();
  let failNext = 0;
  /** How many next payouts are made with their answers held back (lost on the way, as in a timeout). */
  let holdNext = 0;
  /** Answers held back, by PayPal-Request-Id: given when the caller asks again with that id (it has timed out by then). */
  const heldAnswers = new Map<string, () => void>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && req.url === '/v1/oauth2/token') {
        const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
        tokenCalls.push({ grantType: new URLSearchParams(raw).get('grant_type') });
        if (req.headers.authorization !== expected) return send(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
        const token = `A21AA${randomBytes(12).toString('hex')}`;
        tokens.add(token);
        return send(200, {
          scope: 'https://uri.paypal.com/services/payments/payouts',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-1',
          expires_in: 32400,
          nonce: 'n',
        });
      }
      if (req.method === 'POST' && req.url === '/v1/payments/payouts') {
        const bearer = req.headers.authorization?.replace(/^Bearer /, '');
        if (!bearer || !tokens.has(bearer))
          return send(401, {
            name: 'AUTHENTICATION_FAILURE',
            message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
          });
        const requestId = req.headers['paypal-request-id'] as string | undefined;
        const body = JSON.parse(raw) as PayoutCall['body'];
        payoutCalls.push({ requestId, body });
        if (failNext > 0) {
          failNext -= 1;
          return send(503, { name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable.' });
        }
        const batchId = body.sender_batch_header.sender_batch_id;
        const known = batches.get(batchId);
        if (known) {
          if (requestId && known.requestId === requestId) {
            heldAnswers.get(requestId)?.();
            heldAnswers.delete(requestId);
            return send(201, known.answer);
          }
          return send(400, { name: 'USER_BUSINESS_ERROR', message: 'User business error.', details: [{ issue: 'DUPLICATE_REQUEST_ID' }] });
        }
        const answer = {
          batch_header: {
            payout_batch_id: `PB${randomBytes(6).toString('hex').toUpperCase()}`,
            batch_status: 'PENDING',
            sender_batch_header: body.sender_batch_header,
          },
          links: [],
        };
        batches.set(batchId, { requestId, answer });
        if (holdNext > 0 && requestId) {
          holdNext -= 1;
          heldAnswers.set(requestId, () => send(201, answer));
          return;
        }
        return send(201, answer);
      }
      send(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tokenCalls,
    payoutCalls,
    /** Every batch made, by its sender_batch_id. */
    batchIds: () => [...batches.keys()],
    /** The next `n` payouts are made, but their answers are held back until the caller asks again with the same PayPal-Request-Id. */
    holdPayouts(n: number) {
      holdNext = n;
    },
    /** The next `n` payout calls answer 503. */
    failPayouts(n: number) {
      failNext = n;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
