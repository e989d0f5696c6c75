/**
 * Fixed-window counters kept in MongoDB, shared by every API instance (no in-process state).
 * `_id` is the key, e.g. `login:account:ana@example.com` or `login:ip:10.0.0.7`.
 */
import mongoose, { Schema, model } from 'mongoose';
import { AppError } from './errors';
import { inTurn } from './in-turn';

const counterSchema = new Schema({
  _id: { type: String, required: true },
  count: { type: Number, required: true },
  resetAt: { type: Date, required: true },
});
export const RateLimitModel = model('RateLimit', counterSchema, 'rate_limits');

export interface Limit {
  max: number;
  windowMs: number;
}

interface Counter {
  count: number;
  resetAt: Date;
}

/** Counts one event for `key`; a window that has passed starts again from 1. */
export function countHit(key: string, limit: Limit, now = new Date()): Promise<Counter> {
  // One count at a time per key in this process: FerretDB loses concurrent increments (see inTurn).
  return inTurn(`rate-limit:${key}`, () => count(key, limit, now));
}

async function count(key: string, { windowMs }: Limit, now: Date): Promise<Counter> {
  const live = await RateLimitModel.findOneAndUpdate(
    { _id: key, resetAt: mongoose.trusted({ $gt: now }) },
    { $inc: { count: 1 } },
    { new: true },
  ).lean<Counter>();
  if (live) return live;
  const fresh = { count: 1, resetAt: new Date(now.getTime() + windowMs) };
  await RateLimitModel.updateOne({ _id: key }, { $set: fresh }, { upsert: true });
  return fresh;
}

/** Throws 429 with the seconds to wait when `key` has used up its limit in the current window. */
export async function assertUnderLimit(key: string, limit: Limit, message: string, now = new Date()): Promise<void> {
  const counter = await RateLimitModel.findById(key).lean<Counter>();
  if (counter && counter.resetAt > now && counter.count >= limit.max) {
    throw new TooManyRequests(message, Math.ceil((counter.resetAt.getTime() - now.getTime()) / 1000));
  }
}

/** Counts a hit and throws 429 once it goes over the limit (for calls limited on every use). */
export async function consumeLimit(key: string, limit: Limit, message: string, now = new Date()): Promise<void> {
  const counter = await countHit(key, limit, now);
  if (counter.count > limit.max) throw new TooManyRequests(message, Math.ceil((counter.resetAt.getTime() - now.getTime()) / 1000));
}

export async function clearLimit(key: string): Promise<void> {
  await RateLimitModel.deleteOne({ _id: key });
}

export class TooManyRequests extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'too_many_requests', message);
  }
}
