/**
 * One holder at a time per key, across every process of the app, for read-check-write steps that must not
 * interleave (using a member's credit, counting a member's knacks before writing the next one).
 *
 * MongoDB applies a guarded findOneAndUpdate atomically, but FerretDB's SQLite backend does not (its find and
 * its write can interleave with another caller's), while inserting a unique `_id` is exclusive on both. So a
 * lock is an inserted document naming its holder, released by deleting it (only if it is still the holder's),
 * and one left by a process that died frees itself after `ttlMs`.
 *
 * Within one process, callers of the same key first wait in line in memory, so that only the first of them
 * asks the database: a crowd of waiters does not flood it with inserts that fail. Every wait is bounded: a
 * caller that does not get the lock within `waitMs` is answered 409 and may try again.
 *
 * withLease takes the same lock without waiting, for work that one instance does while the others skip it.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Schema, model } from 'mongoose';
import { isDuplicateKey } from './duplicate-key';
import { AppError } from './errors';
import { createPerKeyQueue } from './per-key-queue';
import { ours } from './query';

const mutexSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** Who holds it: only they release it. */
    holder: { type: String, required: true },
    /** After this, the holder is taken for dead and anyone may clear the lock. */
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
/** Locks and leases alike, taken by insert only. */
export const MutexModel = model('Mutex', mutexSchema, 'mutexes');

export interface LockOptions {
  /** How long a holder may keep the lock before others take it for abandoned: well above the work it guards. */
  ttlMs?: number;
  /** How long a caller waits for the lock, in line and at the database together. */
  waitMs?: number;
  /** What a caller who waited `waitMs` in vain is told. */
  busyMessage?: string;
}

const DEFAULTS = { ttlMs: 10_000, waitMs: 5_000, busyMessage: 'Another request of yours is in progress. Please try again.' };

/** This process's callers of a lock, in line per key. */
const lines = createPerKeyQueue();

/** True when `promise` settles before `deadline` (a performance.now() time), false when the deadline comes first. */
async function settlesBefore(promise: Promise<void>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Who takes a lock: readable in the database (which host and process), and unique to this one taking. */
const newHolder = () => `${os.hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;

/**
 * Inserts the lock for `holder`, clearing an abandoned one on the way; false when `deadline` passes first
 * (a deadline already past tries once: the insert, and again only after clearing an abandoned lock).
 */
async function acquire(key: string, holder: string, ttlMs: number, deadline: number): Promise<boolean> {
  for (;;) {
    try {
      await MutexModel.create({ _id: key, holder, expiresAt: new Date(Date.now() + ttlMs) });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const current = await MutexModel.findById(key).lean();
    if (!current) continue; // released meanwhile: try the insert again
    if (current.expiresAt.getTime() < Date.now()) {
      // Cleared by naming the dead holder, so that a waiter who read it late cannot remove a new holder's lock;
      // then the insert decides, as always, who takes it.
      await MutexModel.deleteOne(ours({ _id: key, holder: current.holder, expiresAt: { $lt: new Date() } }));
      continue;
    }
    if (performance.now() > deadline) return false;
    // Another process holds it: look again soon, at a random moment so that waiters do not ask in step.
    await sleep(10 + Math.floor(Math.random() * 20));
  }
}

/** Gives the lock back, only if `holder` still holds it (it may have expired and been taken by another). */
async function release(key: string, holder: string): Promise<void> {
  await MutexModel.deleteOne({ _id: key, holder });
}

/** Runs `fn` while holding the lock `key` (see the top of this file); 409 with `busyMessage` when it cannot get it in time. */
export async function withLock<T>(key: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const { ttlMs, waitMs, busyMessage } = { ...DEFAULTS, ...options };
  // performance.now(), not Date: tests may freeze the date, and the wait must still end.
  const deadline = performance.now() + waitMs;
  const busy = () => new AppError(409, 'conflict', busyMessage);
  const line = lines.join(key);
  try {
    if (!(await settlesBefore(line.ready, deadline))) throw busy();
    const holder = newHolder();
    if (!(await acquire(key, holder, ttlMs, deadline))) throw busy();
    try {
      return await fn();
    } finally {
      await release(key, holder);
    }
  } finally {
    line.leave();
  }
}

export type LeaseResult<T> = { taken: true; result: T } | { taken: false };

/**
 * Runs `fn` only if this caller takes the lock `key` now (free, or abandoned past its expiry), holding it for
 * at most `ttlMs`; otherwise answers `{ taken: false }` at once without running it. For work that one of many
 * instances should do while the others skip it (a scheduled job, sending one payout). Same lock as withLock:
 * a key taken by one is taken for the other.
 */
export async function withLease<T>(key: string, ttlMs: number, fn: () => Promise<T>): Promise<LeaseResult<T>> {
  const holder = newHolder();
  if (!(await acquire(key, holder, ttlMs, performance.now()))) return { taken: false };
  try {
    return { taken: true, result: await fn() };
  } finally {
    await release(key, holder);
  }
}

/**
 * Deletes the locks and leases past their expiry (the expired-records job): a holder that died leaves its lock behind,
 * and while anyone who asks for the same key clears it, a key nobody asks for again (an order's, a payout's) would
 * otherwise stay in the collection for ever. Each is cleared by naming its holder, as `acquire` clears one, so that a
 * lock taken anew meanwhile stays. Answers how many it deleted.
 */
export async function purgeExpiredLocks(now = new Date()): Promise<number> {
  const expired = await MutexModel.find(ours({ expiresAt: { $lt: now } }), { holder: 1 }).lean();
  let deleted = 0;
  for (const lock of expired) {
    const { deletedCount } = await MutexModel.deleteOne(ours({ _id: lock._id, holder: lock.holder, expiresAt: { $lt: now } }));
    deleted += deletedCount;
  }
  return deleted;
}
