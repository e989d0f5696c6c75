/**
 * Ready-made answers for GET calls asked again within a second: a micro-cache in front of the app, as a caching proxy
 * would be. A route opts in by answering through `sendPublicJson` (an answer the same for every visitor: feed pages,
 * suggestions, the tag list; kept by URL) or `sendPrivateJson` (one member's answer, such as their analytics; kept by
 * URL and the exact `Authorization` header that asked, so only a request carrying that same token gets it). For the
 * next second the same request is answered in front of the app (`storedAnswers`, at the app's entry), with the bytes
 * (and their gzip), the ETag and the headers of that first answer (security headers included) made once, and one
 * access-log line, without the rest of the middleware, the router, the contract validator or JSON serialization.
 *
 * Only a request that went the whole way once is answered here, so only requests the contract accepted and, for a
 * private answer, that the session check let in (a token revoked since is still answered for what is left of that
 * second, as a request already under way would be). Writers clear it together with the data caches
 * (`clearPublicResponses`); other processes see a change within the second.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { apiKeyIn } from './auth-context';
import type { Logger } from './logger';
import { requestIdOf } from './request-id';
import { logAnswered } from './request-log';
import { createTtlCache } from './ttl-cache';

/** What goes out: the body and its headers as flat [name, value, …] pairs, made once. */
interface Variant {
  body: Buffer;
  headers: string[];
}

interface Answer {
  plain: Variant;
  /** The gzipped body, when worth it (at least MIN_GZIP bytes). */
  gzipped?: Variant;
  /** The headers of a 304. */
  unchanged: string[];
  etag: string;
}

const TTL_MS = 1_000;
const MAX_ENTRIES = 2_000;
/** Below this, gzip costs more than it saves (the compression middleware's threshold). */
const MIN_GZIP = 1024;
const ACCEPTS_GZIP = /\bgzip\b/;
/** Headers of the first answer that are made anew for each one. */
const PER_ANSWER = new Set(['content-length', 'content-encoding', 'date', 'x-request-id', 'etag', 'vary', 'set-cookie', 'ratelimit', 'ratelimit-policy']);

const answers = createTtlCache<Answer>(TTL_MS, { maxEntries: MAX_ENTRIES });

/** If-None-Match names this ETag (weakly compared, as for any GET). */
function notModified(req: IncomingMessage, etag: string): boolean {
  const wanted = req.headers['if-none-match'];
  if (!wanted) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return wanted.trim() === '*' || wanted.split(',').some((tag) => strip(tag) === strip(etag));
}

function write(req: IncomingMessage, res: ServerResponse, answer: Answer, requestId: string): number {
  if (notModified(req, answer.etag)) {
    res.writeHead(304, answer.unchanged.concat('x-request-id', requestId)).end();
    return 304;
  }
  const { body, headers } = answer.gzipped && ACCEPTS_GZIP.test(req.headers['accept-encoding'] ?? '') ? answer.gzipped : answer.plain;
  res.writeHead(200, headers.concat('x-request-id', requestId)).end(req.method === 'HEAD' ? undefined : body);
  return 200;
}

/** The key of a private answer: the exact Authorization header, then the URL (a header holds no newline). */
const privateKey = (authorization: string, url: string) => `${authorization}\n${url}`;

/** Answers a GET or HEAD whose exact URL (and for a private answer, token) has a fresh stored answer; false when there is none. */
function answerStored(req: IncomingMessage, res: ServerResponse, logger: Logger): boolean {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url) return false;
  const { authorization } = req.headers;
  // A request with an API key goes the whole way: its key is checked and counted, and its answer says its budget.
  if (apiKeyIn(authorization)) return false;
  const answer = answers.peek(req.url) ?? (authorization ? answers.peek(privateKey(authorization, req.url)) : undefined);
  if (!answer) return false;
  const id = requestIdOf(req);
  const statusCode = write(req, res, answer, id);
  logAnswered(logger, req, id, statusCode, { stored: true });
  return true;
}

/**
 * The stored answers, put in front of the app by its entry (lib/app-entry.ts: `first`), so that Express does not
 * set up a request a stored answer serves. Measured on a 2-core machine with autocannon at 32 connections on
 * `GET /api/v2/tag/get-all`: about 20,000 answers a second from there, about 8,500 from a middleware placed first.
 */
export const storedAnswers =
  (logger: Logger) =>
  (req: IncomingMessage, res: ServerResponse): boolean =>
    answerStored(req, res, logger);

/**
 * Answers `value` as JSON the usual way (so the contract's response check still runs where it is on), and
 * keeps the bytes and headers for the same URL when the answer went out as a 200.
 */
export function sendPublicJson(req: Pick<Request, 'originalUrl' | 'method' | 'app'>, res: Response, value: unknown): void {
  res.json(value);
  if (res.statusCode !== 200 || req.method !== 'GET') return;
  keep(req.originalUrl, req, res, value);
}

/**
 * Answers one member's `value` as JSON the usual way, marked private to them (`Cache-Control: private, no-cache`,
 * `Vary: Authorization`), and keeps it for the same URL asked with the same Authorization header.
 */
export function sendPrivateJson(req: Pick<Request, 'originalUrl' | 'method' | 'app' | 'headers'>, res: Response, value: unknown): void {
  res.setHeader('Cache-Control', 'private, no-cache');
  res.json(value);
  const { authorization } = req.headers;
  if (res.statusCode !== 200 || req.method !== 'GET' || !authorization || apiKeyIn(authorization)) return;
  keep(privateKey(authorization, req.originalUrl), req, res, value, 'Authorization');
}

function keep(key: string, req: Pick<Request, 'app'>, res: Response, value: unknown, varyAlso?: string): void {
  const body = Buffer.from(JSON.stringify(value));
  const etag = (req.app.get('etag fn') as (body: Buffer) => string)(body);
  const kept = Object.entries(res.getHeaders()).flatMap(([name, value]) => (PER_ANSWER.has(name) || value === undefined ? [] : [name, String(value)]));
  const unchanged = [...kept, 'etag', etag, 'vary', varyAlso ? `Accept-Encoding, ${varyAlso}` : 'Accept-Encoding'];
  const variant = (bytes: Buffer, encoding?: string): Variant => ({
    body: bytes,
    headers: [...unchanged, 'content-length', String(bytes.length), ...(encoding ? ['content-encoding', encoding] : [])],
  });
  answers.set(key, {
    plain: variant(body),
    gzipped: body.length >= MIN_GZIP ? variant(gzipSync(body), 'gzip') : undefined,
    unchanged,
    etag,
  });
}

/** Forgets every stored answer (a write changed what they show). */
export function clearPublicResponses(): void {
  answers.clear();
}
