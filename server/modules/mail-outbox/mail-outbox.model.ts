import { Schema, model } from 'mongoose';

/**
 * `mail_outbox`: every mail not delivered yet, and the ones given up on. A mail is inserted here before anything tries
 * to deliver it, so that a refused or unreachable mail server loses nothing; it is deleted as soon as the mail server
 * accepts it (its body may hold a sign-in or reset link, which is kept no longer than delivery needs). So the
 * collection stays as small as the mails waiting, which the retry job reads whole every minute.
 */
const outboxMailSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The same Message-ID on every attempt, so that a mail delivered twice (see the attempts) is recognisably one mail. */
    messageId: { type: String, required: true },
    to: { type: String, required: true },
    subject: { type: String, required: true },
    /** Emptied when the mail is given up on: it will never be sent, and its links must not linger. */
    text: { type: String, default: '' },
    html: { type: String, default: '' },
    list: { type: Schema.Types.Mixed, default: undefined },
    headers: { type: Schema.Types.Mixed, default: undefined },
    /** `waiting` until delivered (then deleted) or until it is given up on (`failed`). */
    state: { type: String, enum: ['waiting', 'failed'], required: true },
    /** Attempts started so far, which is also the number of the next one (its claim is `{_id}:{attempts}`). */
    attempts: { type: Number, required: true },
    nextAttemptAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
    /** The mail server's last answer or the connection's error: never the mail's body. */
    lastError: { type: String, default: null },
    failedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
// The retry job's read on MongoDB (FerretDB scans, which stays cheap while only undelivered mails are kept).
outboxMailSchema.index({ state: 1, nextAttemptAt: 1 });

export type OutboxMailState = 'waiting' | 'failed';

export interface OutboxMailDoc {
  _id: string;
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  list?: { unsubscribe: string };
  headers?: Record<string, string>;
  state: OutboxMailState;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
  lastError: string | null;
  failedAt: Date | null;
}

export const OutboxMailModel = model<OutboxMailDoc>('OutboxMail', outboxMailSchema, 'mail_outbox');

/**
 * `mail_outbox_attempts`: one document per delivery attempt, `_id` `{mailId}:{n}`, inserted before the mail is handed
 * to the mail server. Updates are not atomic on FerretDB, so this insert is what makes an attempt exclusive: of two
 * processes that read the same waiting mail, only the one whose insert succeeds sends it. Its outcome is written when
 * known; one left `sending` by a process that stopped is taken over after ATTEMPT_ABANDONED_MS. No address or body:
 * it is the record of what was sent (with the Message-ID), kept ATTEMPTS_KEPT_MS.
 */
const outboxAttemptSchema = new Schema(
  {
    _id: { type: String, required: true },
    mailId: { type: String, required: true },
    messageId: { type: String, required: true },
    outcome: { type: String, enum: ['sending', 'sent', 'failed'], required: true },
    at: { type: Date, required: true },
    endedAt: { type: Date, default: null },
  },
  { versionKey: false },
);

export type AttemptOutcome = 'sending' | 'sent' | 'failed';

export interface OutboxAttemptDoc {
  _id: string;
  mailId: string;
  messageId: string;
  outcome: AttemptOutcome;
  at: Date;
  endedAt: Date | null;
}

export const OutboxAttemptModel = model<OutboxAttemptDoc>('OutboxAttempt', outboxAttemptSchema, 'mail_outbox_attempts');

export const attemptKey = (mailId: string, attempt: number) => `${mailId}:${attempt}`;
