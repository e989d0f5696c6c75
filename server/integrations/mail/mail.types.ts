export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** List headers (RFC 2369), as nodemailer writes them: `unsubscribe` becomes `List-Unsubscribe: <url>`. */
  list?: { unsubscribe: string };
  /** Other headers, such as `List-Unsubscribe-Post` (RFC 8058). */
  headers?: Record<string, string>;
  /** The Message-ID header (`<id@host>`): the outbox gives every attempt at one mail the same, so a repeat is recognisable. */
  messageId?: string;
}

/**
 * Sends one mail. A driver rejects when it could not hand the mail over (SMTP refused, disk full); the modules are
 * given the durable outbox's Mailer instead (server/modules/mail-outbox), which resolves once the mail is kept and
 * rejects only when it could not be kept.
 */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** The outbox folder, for the dev-only page; undefined for real delivery. */
  readonly outboxDir?: string;
}

/**
 * The outbox's own domain, for throwaway test addresses: `.test` is reserved (RFC 2606), so no real mail server
 * delivers to it, and only the embedded outbox, which keeps every mail whatever its address, receives such mail.
 */
export const TEST_MAILBOX_DOMAIN = 'outbox.knack.test';
