import path from 'node:path';
import type { Config } from '../../config';
import type { Mailer } from './mail.types';
import { outboxMailer } from './outbox.driver';
import { smtpMailer } from './smtp.driver';

export type { Mailer, MailMessage } from './mail.types';
export { TEST_MAILBOX_DOMAIN } from './mail.types';
export { outboxMailer } from './outbox.driver';
export { isLoopback, outboxRouter } from './outbox.routes';
export { smtpMailer } from './smtp.driver';

/** SMTP when SMTP_URL is set, else the outbox under DATA_DIR/mail. */
export function createMailer(config: Pick<Config, 'mail' | 'dataDir'>): Mailer {
  return config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : outboxMailer(path.join(config.dataDir, 'mail'), config.mail.from);
}
