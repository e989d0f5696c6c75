/** What tests need beyond the index: the kept mails and the records of their attempts. */
export { OutboxAttemptModel, OutboxMailModel, type OutboxAttemptDoc, type OutboxMailDoc } from './mail-outbox.model';
