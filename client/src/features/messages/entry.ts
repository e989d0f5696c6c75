/**
 * features/messages, the parts other features' lazy pages reuse, apart from the index (which the store loads on every
 * page): one inbox with its threads and the open thread, as /inbox shows it (the admin area's support inbox shows the
 * support account's).
 */
export { Mailbox, type MailboxProps } from './components/Mailbox';
