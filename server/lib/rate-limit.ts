/**
 * Fixed-window limits kept in the database, exact across every API instance (no in-process state that
 * correctness depends on). A key names what is limited, e.g. `login:account:ana@example.com` or `login:ip:10.0.0.7`.
 *
 * Windows are fixed spans of `windowMs` counted from the Unix epoch, so every process computes the same window
 * from the clock alone. A hit inserts the next numbered slot of its window, `{key}|{windowStart}|{epoch}|{n}`:
 * an insert on a unique `_id` is the one step that two concurrent callers cannot both win, on MongoDB and on
 * FerretDB alike (whose `$inc` loses concurrent increments), so each slot is taken by exactly one hit and the
 * hits of a window are the slots taken. A hit that finds slot n taken tries n + 1, up to `max + 1`, which marks
 * the limit passed. `clearLimit` starts a new epoch for the key's current window: one write, and the next hit
 * takes slot 1 of the new epoch.
 *
 * Each process remembers the last slot it took per window, so that a hit usually costs one lookup and one
 * insert instead of climbing from slot 1. The hint is checked against the database before use: emptying the
 * hits collection (an operator lifting every limit at once) starts every count again from 1.
 */
import { randomBytes } from 'node:crypto';
import mongoose, { Schema, model } from 'mongoose';
import { AppError } from './errors';
import { isDuplicateKey } from './duplicate-key';

/** One hit: slot `n` of a key's window. Removed once its window has ended (`purgeExpiredLimits`). */
const hitSchema = new Schema(
  {
    _id: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// FerretDB refuses TTL indexes, so the housekeeping job deletes ended windows on both databases.
hitSchema.index({ expiresAt: 1 });
export const RateLimitModel = model('RateLimitHit', hitSchema, 'rate_limit_hits');

/** The last clear of a key: hits of the window it was made in count from its epoch on. */
const clearSchema = new Schema(
  {
    _id: { type: String, required: true },
    epoch: { type: String, required: true },
    clearedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
clearSchema.index({ expiresAt: 1 });
const RateLimitClearModel = model('RateLimitClear', clearSchema, 'rate_limit_clears');

/** How long a clear is kept. Windows must be shorter: a clear older than its window no longer matters. */
const CLEAR_KEPT_MS = 86_400_000;

export interface Limit {
  max: number;
  windowMs: number;
}

interface Counter {
  /** The hits in the window so far, this one included; `max + 1` stands for every count past the limit. */
  count: number;
  resetAt: Date;
  /** The window's slot prefix: with `count`, the slot this hit took. */
  prefix: string;
}

interface Window {
  /** The slots' `_id` prefix: key, window start and epoch. */
  prefix: string;
  end: Date;
}

/** The last slot this process took per window prefix: where the next hit starts looking. */
const hints = new Map<string, number>();
const HINTS_KEPT = 10_000;

async function windowOf(key: string, { windowMs }: Limit, now: Date): Promise<Window> {
  if (windowMs > CLEAR_KEPT_MS) throw new Error(`rate limit windows longer than ${CLEAR_KEPT_MS} ms are not supported`);
  const start = now.getTime() - (now.getTime() % windowMs);
  const clear = await RateLimitClearModel.findById(key).lean();
  const epoch = clear && clear.clearedAt.getTime() >= start ? clear.epoch : '0';
  return { prefix: `${key}|${start}|${epoch}`, end: new Date(start + windowMs) };
}

/** Whole seconds from `now` until `end`, at least 1: what Retry-After and the RateLimit headers say. */
export const secondsUntil = (end: Date, now: Date) => Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));

async function take(id: string, expiresAt: Date): Promise<boolean> {
  try {
    await RateLimitModel.create({ _id: id, expiresAt });
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** Where to start climbing: after the hinted slot if it is still there, else from slot 1. */
async function firstFreeGuess(prefix: string): Promise<number> {
  const hint = hints.get(prefix);
  if (!hint) return 1;
  return (await RateLimitModel.exists({ _id: `${prefix}|${hint}` })) ? hint + 1 : 1;
}

function remember(prefix: string, slot: number): void {
  if (hints.size >= HINTS_KEPT && !hints.has(prefix)) hints.clear();
  hints.set(prefix, slot);
}

/** Counts one event for `key` in the current window; a new window starts again from 1. */
export async function countHit(key: string, limit: Limit, now = new Date()): Promise<Counter> {
  const { prefix, end } = await windowOf(key, limit, now);
  const over = limit.max + 1;
  for (let slot = await firstFreeGuess(prefix); slot <= over; slot++) {
    if (await take(`${prefix}|${slot}`, end)) {
      remember(prefix, slot);
      return { count: slot, resetAt: end, prefix };
    }
  }
  remember(prefix, over);
  return { count: over, resetAt: end, prefix };
}

/**
 * Counts a hit and throws 429 once it goes over the limit. Call it before the work it limits, as one step: a
 * check made before the work and a count made after it would let every call of a burst sent at once pass the
 * check before the first one was counted. So there is no check without a count here, and the modules may not
 * call countHit (eslint.config.mjs): a try that turns out not to matter is not given back.
 */
export async function consumeLimit(key: string, limit: Limit, message: string, now = new Date()): Promise<CountedHit> {
  const counter = await countHit(key, limit, now);
  if (counter.count > limit.max) throw new TooManyRequests(message, secondsUntil(counter.resetAt, now));
  return { prefix: counter.prefix, slot: counter.count, resetAt: counter.resetAt };
}

/**
 * The slot one counted hit took, so that a call that must not count (a sign-in that succeeded) can give it back.
 * The slot is also the hit's number in its window, and `resetAt` when that window ends: what a caller is told of
 * its budget (the RateLimit headers of API keys).
 */
export interface CountedHit {
  prefix: string;
  slot: number;
  resetAt: Date;
}

/**
 * Gives back one hit counted by `consumeLimit`: its slot is deleted, and this process takes it again next. Only
 * for calls whose outcome shows they are not what the limit is against, once the work is done: the hit still
 * counted while the work ran, so a burst sent at once is cut off all the same. Counts stay on the safe side: a
 * process that already climbed past the freed slot keeps counting from where it is.
 */
export async function giveBackHit({ prefix, slot }: Pick<CountedHit, 'prefix' | 'slot'>): Promise<void> {
  await RateLimitModel.deleteOne({ _id: `${prefix}|${slot}` });
  if ((hints.get(prefix) ?? 0) >= slot) remember(prefix, slot - 1);
}

/** Forgets the hits of `key` in its current window: the next hit counts 1. */
export async function clearLimit(key: string, now = new Date()): Promise<void> {
  const clear = { epoch: randomBytes(6).toString('hex'), clearedAt: now, expiresAt: new Date(now.getTime() + CLEAR_KEPT_MS) };
  try {
    await RateLimitClearModel.updateOne({ _id: key }, { $set: clear }, { upsert: true });
  } catch (err) {
    // Two first clears of a key racing to create it: either epoch is a fresh start.
    if (!isDuplicateKey(err)) throw err;
  }
}

/** Deletes the hits of ended windows and the clears too old to matter (the housekeeping job). */
export async function purgeExpiredLimits(now = new Date()): Promise<number> {
  const expired = { expiresAt: mongoose.trusted({ $lte: now }) };
  const [hits, clears] = await Promise.all([RateLimitModel.deleteMany(expired), RateLimitClearModel.deleteMany(expired)]);
  return hits.deletedCount + clears.deletedCount;
}

export class TooManyRequests extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'too_many_requests', message);
  }
}
