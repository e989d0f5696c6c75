/**
 * A stand-in for PostHog's capture API on loopback, speaking the part Knack uses: `POST /batch/` with a JSON body
 * `{ api_key, batch: [{ event, distinct_id, properties, timestamp, uuid }] }`. Like PostHog's capture service, it
 * answers 200 `{"status":"Ok"}` once the batch is taken; 401 with a line of text when the project key is missing
 * (`event submitted without an api_key`) or is a personal key (`phx_…`, which capture refuses); 400 when the body
 * is not JSON, holds no event, or an event has no name or no distinct_id. The test can make it answer 503 (as
 * capture does for a transient failure) or hold its answers until released, to show that a slow or failing PostHog
 * never reaches the member's request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedEvent {
  event: string;
  distinct_id?: string;
  properties?: Record<string, unknown>;
  timestamp?: string;
  uuid?: string;
}

export interface CapturedBatch {
  apiKey: string;
  batch: CapturedEvent[];
}

export async function startPostHogStandIn() {
  const batches: CapturedBatch[] = [];
  let failNext = 0;
  let held: (() => void)[] | null = null;

  const answer = (req: http.IncomingMessage, res: http.ServerResponse, raw: string) => {
    const text = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(body);
    };
    if (req.method !== 'POST' || !/^\/batch\/?$/.test(req.url ?? '')) return text(404, 'Not Found');
    let body: { api_key?: unknown; batch?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch (err) {
      return text(400, `failed to parse request: ${(err as Error).message}`);
    }
    const batch = Array.isArray(body.batch) ? (body.batch as CapturedEvent[]) : [];
    if (batch.length === 0) return text(400, 'request holds no event');
    if (batch.some((event) => !event.event)) return text(400, 'event submitted with an empty event name');
    if (batch.some((event) => !event.distinct_id && !event.properties?.distinct_id)) return text(400, 'event submitted without a distinct_id');
    const apiKey = typeof body.api_key === 'string' ? body.api_key : '';
    if (!apiKey) return text(401, 'event submitted without an api_key');
    if (apiKey.startsWith('phx_')) return text(401, 'API key is not valid: personal api key');
    if (failNext > 0) {
      failNext -= 1;
      return text(503, 'transient error, please retry');
    }
    batches.push({ apiKey, batch });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ status: 'Ok' }));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (held) held.push(() => answer(req, res, raw));
      else answer(req, res, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The batches taken, in the order they arrived. */
    batches,
    /** Every event taken, in order. */
    events: () => batches.flatMap((taken) => taken.batch),
    /** The next `n` batches answer 503. */
    failBatches(n: number) {
      failNext = n;
    },
    /** Requests wait, unanswered, until `release`. */
    hold() {
      held ??= [];
    },
    /** How many requests are waiting for an answer. */
    waiting: () => held?.length ?? 0,
    release() {
      const waiting = held ?? [];
      held = null;
      for (const answerNow of waiting) answerNow();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
