export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one mail; rejects when it could not be handed over (SMTP refused, disk full). */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** The outbox folder, for the dev-only page; undefined for real delivery. */
  readonly outboxDir?: string;
}
