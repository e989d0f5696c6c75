/** Idempotency keys: the calls that move money or credits done once per member's key, their answers repeated for 24 hours. */
export { idempotentCalls, purgeExpiredIdempotencyKeys, IDEMPOTENCY_MESSAGES, REPLAYED_HEADER } from './idempotency.service';
