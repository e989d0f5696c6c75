import { Schema, model, type Types } from 'mongoose';

/**
 * One mail a job sends at most once, under its idempotency key: `payout-notice:{sendId}`, `statement:{userId}:{yyyy-mm}`,
 * `digest:{userId}:{isoWeek}`. Inserted before the mail is sent, so that of two runs, in any processes, one sends it
 * (the other's insert fails on the key); `sent` once the mail server took it. A send that fails deletes its
 * document, so the next run tries again. `skipped`: the member had turned this kind of mail off, and it stays unsent.
 */
const mailSendSchema = new Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: ['payout-notice', 'statement', 'digest'], required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    status: { type: String, enum: ['sending', 'sent', 'skipped'], required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export type MailKind = 'payout-notice' | 'statement' | 'digest';

export interface MailSendDoc {
  _id: string;
  kind: MailKind;
  userId: Types.ObjectId;
  status: 'sending' | 'sent' | 'skipped';
  at: Date;
}

export const MailSendModel = model<MailSendDoc>('MailSend', mailSendSchema, 'mail_sends');
