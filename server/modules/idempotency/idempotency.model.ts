import { Schema, model } from 'mongoose';

/** A stored answer, repeated to a request that comes again with the same key and body. */
export interface StoredAnswer {
  status: number;
  /** The few headers that say something about the answer beyond its body (Location, Retry-After, a checkout's cookie). */
  headers: Record<string, string | string[]>;
  /** The body as the JSON text first sent: kept as text, so that no field name or value is changed by storing it. */
  body: string;
}

/**
 * One Idempotency-Key of one member, under `{userId}:{SHA-256 of the key}` (`idempotencyKeyId`): taking a key is one
 * insert on that `_id`, the only step two requests (or two processes) cannot both win on FerretDB, whose updates are
 * not atomic. The member is part of the id, so the same key sent by two members is two unrelated documents.
 *
 * `running` while its first request is being handled, by `holder` until `leaseExpiresAt` (renewed while it runs): a
 * key whose holder died is taken over after that. `done` once that request answered, with the answer. Kept until
 * `expiresAt`, 24 hours after it was taken; the expired-records job deletes it then, and a key found past it before
 * that is treated as new.
 */
const idempotencyKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    /** SHA-256 of the method, the path and the body in canonical form: the request the key was first used for. */
    fingerprint: { type: String, required: true },
    state: { type: String, enum: ['running', 'done'], required: true },
    holder: { type: String, required: true },
    leaseExpiresAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    answer: { type: Schema.Types.Mixed, default: null },
  },
  { versionKey: false, minimize: false },
);
// FerretDB refuses TTL indexes, so the housekeeping job deletes expired keys on both databases.
idempotencyKeySchema.index({ expiresAt: 1 });

export interface IdempotencyKeyDoc {
  _id: string;
  userId: string;
  fingerprint: string;
  state: 'running' | 'done';
  holder: string;
  leaseExpiresAt: Date;
  createdAt: Date;
  expiresAt: Date;
  answer: StoredAnswer | null;
}

export const IdempotencyKeyModel = model<IdempotencyKeyDoc>('IdempotencyKey', idempotencyKeySchema, 'idempotency_keys');
