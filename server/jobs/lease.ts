import { randomBytes } from 'node:crypto';
import os from 'node:os';
import mongoose from 'mongoose';
import { LockModel } from './locks.model';

export type LeaseResult<T> = { taken: true; result: T } | { taken: false };

/**
 * Runs `fn` only if this caller takes the lease `name` (free or expired) for `ttlMs`, so that among many
 * instances one runs it. The lease is given back when `fn` ends; if this process dies, it expires.
 */
export async function withLease<T>(name: string, ttlMs: number, fn: () => Promise<T>): Promise<LeaseResult<T>> {
  const holder = `${os.hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  const now = new Date();
  try {
    await LockModel.findOneAndUpdate(
      { _id: name, expiresAt: mongoose.trusted({ $lte: now }) },
      { $set: { holder, expiresAt: new Date(now.getTime() + ttlMs) } },
      { upsert: true },
    );
  } catch (err) {
    // The lease exists and is not expired: the filter misses it and the upsert collides with its _id.
    if ((err as { code?: number }).code === 11000) return { taken: false };
    throw err;
  }
  try {
    return { taken: true, result: await fn() };
  } finally {
    // Only if still ours (it may have expired and been taken); if this fails, the lease expires anyway.
    await LockModel.updateOne({ _id: name, holder }, { $set: { expiresAt: new Date() } }).catch(() => undefined);
  }
}
