/** The durable outbox every mail goes through: kept first, delivered at once or retried with backoff until taken. */
export {
  ATTEMPT_ABANDONED_MS,
  ATTEMPTS_KEPT_MS,
  createMailOutbox,
  FAILED_KEPT_MS,
  mailOutboxCounts,
  purgeMailOutbox,
  type MailOutbox,
  type MailOutboxDeps,
  type OutboxRunSummary,
} from './mail-outbox.service';
export { FIRST_RETRY_MS, GIVE_UP_AFTER_MS, MAX_RETRY_MS, retryDelayMs } from './mail-outbox.backoff';
