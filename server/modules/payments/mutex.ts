/**
 * A short lock per key, for read-check-write steps that must not interleave (using a member's credit).
 * MongoDB applies a guarded findOneAndUpdate atomically, but FerretDB's SQLite backend does not (its find
 * and its write can interleave with another caller's), while a unique `_id` insert is exclusive on both: the
 * lock is an insert, released by a delete, and one left by a crashed process frees itself after `ttlMs`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../lib/errors';
import { ours } from '../../lib/query';
import { PaymentLockModel } from './payments.model';

const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

export async function withLock<T>(key: string, fn: () => Promise<T>, { ttlMs = 10_000, waitMs = 5_000 } = {}): Promise<T> {
  const giveUpAt = Date.now() + waitMs;
  for (;;) {
    try {
      await PaymentLockModel.create({ _id: key, expiresAt: new Date(Date.now() + ttlMs) });
      break;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await PaymentLockModel.deleteOne(ours({ _id: key, expiresAt: { $lt: new Date() } }));
      if (Date.now() > giveUpAt) throw new AppError(409, 'conflict', 'Another payment of yours is in progress. Please try again.');
      await sleep(10 + Math.floor(Math.random() * 30));
    }
  }
  try {
    return await fn();
  } finally {
    await PaymentLockModel.deleteOne({ _id: key });
  }
}
