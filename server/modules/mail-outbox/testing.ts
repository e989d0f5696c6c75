/** What tests need beyond the index: the kept mails, the records of their attempts, and when a mail is given up on. */
export { givenUp } from './mail-outbox.backoff';
export { OutboxAttemptModel, OutboxMailModel, type OutboxAttemptDoc, type OutboxMailDoc } from './mail-outbox.model';
