/**
 * What tests use of this module beyond its index.ts: the collection, to see and place keys. Production code never
 * imports this file (the linter refuses it): other modules use the index.
 */
export { IdempotencyKeyModel, type IdempotencyKeyDoc } from './idempotency.model';
export { IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_LEASE_MS, idempotencyKeyId, requestFingerprint } from './idempotency.service';
