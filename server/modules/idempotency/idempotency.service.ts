/**
 * Idempotency-Key on the calls that move money or credits (the contract marks them `x-idempotent`), with Stripe's
 * semantics: a member's key taken once is kept 24 hours, and
 * - the same key with the same request answers the first answer again, its status included (`Idempotent-Replayed`);
 * - the same key with another request (body, call or path) answers 422;
 * - the same key while its first request is still running answers 409 with Retry-After.
 *
 * The key is taken by inserting its document (`idempotency.model.ts`) before the call's handler runs, which is the one
 * exclusive step on every database we run; its answer is written to that document before it is sent, so that a
 * client that saw an answer gets the same one again. An answer of 500 or more, and a 429 (nothing was done, and
 * waiting is the remedy), is not kept: the key is given up, so the same action may be sent again under it.
 *
 * A request whose process died leaves its key `running`; after its lease (renewed while the handler runs) another
 * request with the key takes it over and runs the call again. That is safe because each money call is itself done
 * once by its own unique keys (a piece is monetized once, a member has one waiting cash-out, a ledger entry's `_id`
 * is derived from what it records): the retry then answers what the call answers when the work is already done.
 */
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import mongoose from 'mongoose';
import type { AuthConfig } from '../../config';
import { isDuplicateKey } from '../../lib/duplicate-key';
import '../../lib/action-key';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { deleteWhileStill, updateWhileStill } from '../../lib/guarded-write';
import { requireAuth } from '../users';
import { IdempotencyKeyModel, type IdempotencyKeyDoc, type StoredAnswer } from './idempotency.model';

/** How long a key and its answer are kept. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000;
/** How long a running request holds its key without renewing it; past this its process is taken for dead. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** What a request finding its key still running is told to wait, in seconds. */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;

export const IDEMPOTENCY_MESSAGES = {
  reused: 'This Idempotency-Key was used with a different request.',
  inUse: 'A request with this Idempotency-Key is still being processed. Retry shortly.',
} as const;

/** The header that marks an answer repeated from the key's first request. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The answer headers kept with a stored answer: the others are the transport's, or made again for each answer. A
 * checkout's payer cookie is kept, so that a browser whose first answer was lost can still open the checkout; the key
 * is the member's own, so the cookie goes back to them alone.
 */
const KEPT_HEADERS = ['location', 'retry-after', 'set-cookie'];
/**
 * How long a request keeps renewing its key's lease: a handler that never answers (a stuck outside service) frees the
 * key a lease after this, and a retry may then take it over.
 */
const LONGEST_RUN_MS = 10 * 60_000;

/** The key document of member `userId`'s key `key`: the key itself is stored only as its hash. */
export const idempotencyKeyId = (userId: string, key: string) => `${userId}:${createHash('sha256').update(key).digest('base64url')}`;

/** JSON with every object's keys in order, so that the same body sent with its fields in another order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a key is bound to: the method, the path (its ids already in one letter case) and the body. */
export const requestFingerprint = (method: string, path: string, body: unknown) =>
  createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');

const newHolder = () => `${os.hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;

type Claim = { taken: true; holder: string } | { taken: false; found: IdempotencyKeyDoc };

/**
 * Takes the key for this request, or answers what holds it. A key past its 24 hours, or left running by a holder
 * whose lease ended, is removed (only while it is still that holder's) and the insert tried again: the insert
 * decides, as always, which of the requests racing for it takes it.
 */
async function claim(id: string, userId: string, fingerprint: string): Promise<Claim> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = new Date();
    const holder = newHolder();
    try {
      await IdempotencyKeyModel.create({
        _id: id,
        userId,
        fingerprint,
        state: 'running',
        holder,
        leaseExpiresAt: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
        createdAt: now,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
        answer: null,
      });
      return { taken: true, holder };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const found = await IdempotencyKeyModel.findById(id).lean<IdempotencyKeyDoc>();
    if (!found) continue; // given up meanwhile: try the insert again
    const stale = found.expiresAt.getTime() <= now.getTime();
    const abandoned = found.state === 'running' && found.leaseExpiresAt.getTime() <= now.getTime() && found.fingerprint === fingerprint;
    // Three rounds are plenty for a key given up or cleared meanwhile; past them, whoever holds it now is answered.
    if ((!stale && !abandoned) || attempt >= 2) return { taken: false, found };
    await deleteWhileStill(IdempotencyKeyModel, id, { holder: found.holder, state: found.state });
  }
  // Taken and given up again and again meanwhile: the other requests with this key are running now.
  throw keyInUse();
}

const keyInUse = () =>
  Object.assign(new AppError(409, 'idempotency_key_in_use', IDEMPOTENCY_MESSAGES.inUse), { retryAfterSeconds: IDEMPOTENCY_RETRY_AFTER_SECONDS });

/** Writes the answer on the key, only while `holder` still holds it. */
async function storeAnswer(id: string, holder: string, answer: StoredAnswer): Promise<void> {
  await updateWhileStill(IdempotencyKeyModel, id, { holder, state: 'running' }, { $set: { state: 'done', answer } });
}

/** Gives the key up, only while `holder` still holds it: the same action may then be sent again under it. */
async function giveUp(id: string, holder: string): Promise<void> {
  await deleteWhileStill(IdempotencyKeyModel, id, { holder, state: 'running' });
}

/** Keeps the key's lease while its request runs in this process. */
async function renewLease(id: string, holder: string): Promise<void> {
  await updateWhileStill(
    IdempotencyKeyModel,
    id,
    { holder, state: 'running' },
    {
      $set: { leaseExpiresAt: new Date(Date.now() + IDEMPOTENCY_LEASE_MS) },
    },
  );
}

/** Deletes the keys past their 24 hours (the expired-records job); answers how many went. */
export async function purgeExpiredIdempotencyKeys(now = new Date()): Promise<number> {
  const { deletedCount } = await IdempotencyKeyModel.deleteMany({ expiresAt: mongoose.trusted({ $lte: now }) });
  return deletedCount;
}

/** What the contract validator leaves on a request it matched: the operation as the contract writes it. */
type Matched = Request & { openapi?: { schema?: { 'x-idempotent'?: boolean } } };

/**
 * Sets `req.auth` for a request with a token, as the call's own guard would: the guard goes on when the caller may act,
 * and refuses (401) by throwing, which rejects the promise it answers.
 */
function authenticate(guard: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const settled: unknown = guard(req, res, () => resolve());
    if (settled instanceof Promise) settled.catch(reject);
  });
}

function replay(res: Response, answer: StoredAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.status(answer.status).type('application/json').send(answer.body);
}

/** Whether an answer is kept for the key: not a failure on our side, nor a refusal that only asks to wait. */
const keeps = (status: number) => status < 500 && status !== 429;

/**
 * The Idempotency-Key middleware: mount it after the contract validator (which has matched the operation and checked
 * the header: 1 to 255 characters) and before the routers. It acts only on operations marked `x-idempotent` that
 * carry the header and a member's token; a visitor's request goes on to the call's guard, which answers 401.
 */
export function idempotentCalls(auth: AuthConfig, logger: Logger): RequestHandler {
  const log = logger.child({ module: 'idempotency' });
  const guard = requireAuth(auth);
  return async (req: Request, res: Response, next: NextFunction) => {
    if ((req as Matched).openapi?.schema?.['x-idempotent'] !== true) return next();
    const key = req.get('Idempotency-Key');
    if (key === undefined || !req.headers.authorization) return next();
    if (!req.auth) await authenticate(guard, req, res);
    const userId = req.auth!.userId;
    const id = idempotencyKeyId(userId, key);
    const fingerprint = requestFingerprint(req.method, req.baseUrl + req.path, req.body);
    const claimed = await claim(id, userId, fingerprint);
    if (!claimed.taken) {
      const { found } = claimed;
      if (found.fingerprint !== fingerprint) throw new AppError(422, 'idempotency_key_reused', IDEMPOTENCY_MESSAGES.reused);
      if (found.state === 'done' && found.answer) return replay(res, found.answer);
      throw keyInUse();
    }
    const { holder } = claimed;
    req.actionKey = id;
    // The lease is renewed while the handler runs, also after the client hung up: the handler may still move the
    // money, and its answer is then stored for the client's retry, which meanwhile is answered 409.
    const runUntil = Date.now() + LONGEST_RUN_MS;
    // The renewal under way, if any: the answer is written after it, since on FerretDB two updates of one document
    // can interleave, and a renewal that read the key before the answer was written would write `running` back.
    let renewing = Promise.resolve();
    const renewal = setInterval(() => {
      if (Date.now() > runUntil) return clearInterval(renewal);
      renewing = renewLease(id, holder).catch((err: unknown) => log.warn({ err, reqId: req.id }, 'the lease of an Idempotency-Key could not be renewed'));
    }, IDEMPOTENCY_LEASE_MS / 3);
    renewal.unref();
    let settled = false;
    const settle = () => {
      settled = true;
      clearInterval(renewal);
    };
    const answer: Response['json'] = res.json.bind(res);
    res.json = (body?: unknown) => {
      if (settled) return answer(body);
      settle();
      res.json = answer;
      const status = res.statusCode;
      const headers = Object.fromEntries(
        KEPT_HEADERS.flatMap((name) => {
          const value = res.getHeader(name);
          return value === undefined ? [] : [[name, Array.isArray(value) ? value : String(value)]];
        }),
      );
      const write = renewing.then(() =>
        keeps(status) ? storeAnswer(id, holder, { status, headers, body: JSON.stringify(body) ?? 'null' }) : giveUp(id, holder),
      );
      // The answer goes out either way: if it could not be kept, the key stays running until its lease ends, and a
      // retry then runs the call again, which its own unique keys make safe.
      write.catch((err: unknown) => log.error({ err, reqId: req.id }, 'the answer of an Idempotency-Key could not be stored')).finally(() => answer(body));
      return res;
    };
    next();
  };
}
