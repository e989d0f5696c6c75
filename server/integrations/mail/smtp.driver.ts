import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mail.types';

/**
 * How long a send waits on a mail server that does not answer. nodemailer's own defaults (2 minutes to connect, 10 of
 * silence) would hold the request that sends the mail that long; the mail is kept in the outbox, so giving up soon
 * costs nothing, and every attempt ends well within the time after which the outbox takes an attempt for abandoned.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 };

/** Real delivery through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS });
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      await transport.sendMail({ from, ...message });
    },
  };
}
