import { Schema, model, type Types } from 'mongoose';

/**
 * A member started a song (`knack/play`): the play counts (`knack/add` with this id) once `minMs` (half the
 * song) has passed since `startedAt`, measured by the server. Used sessions are removed; stale ones by the
 * housekeeping job.
 */
const playSessionSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    startedAt: { type: Date, required: true },
    minMs: { type: Number, required: true },
  },
  { versionKey: false },
);
playSessionSchema.index({ startedAt: 1 });

export interface PlaySessionDoc {
  _id: string;
  userId: Types.ObjectId;
  contentId: Types.ObjectId;
  startedAt: Date;
  minMs: number;
}

export const PlaySessionModel = model<PlaySessionDoc>('PlaySession', playSessionSchema, 'play_sessions');

/**
 * The emailed 4-digit code a member gives when their knack window is full (`_id` the member; the window itself
 * is in knack-window.ts): kept as an HMAC, for 15 minutes and 5 attempts (counted in knack_code_attempts under
 * `codeId`). A right code is used up, and the knack it came with starts a new count.
 */
const knackCodeSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    codeHash: { type: String, default: null },
    expiresAt: { type: Date, default: null },
    /** A new id for every code sent: its attempts are counted under it, so a new code starts with all 5. */
    codeId: { type: String, default: null },
  },
  { versionKey: false },
);

export interface KnackCodeDoc {
  _id: Types.ObjectId;
  codeHash: string | null;
  expiresAt: Date | null;
  codeId?: string | null;
}

export const KnackCodeModel = model<KnackCodeDoc>('KnackCode', knackCodeSchema, 'knack_codes');

/**
 * One attempt at a code: `_id` `attempt:{userId}:{codeId}:{n}`, n from 1 to 5. An attempt inserts the first
 * free slot; when all 5 are taken the code is used up. Inserting is the one step that is exclusive on every
 * database we run (an update of a counter is not, on FerretDB), so no two attempts anywhere take one slot.
 */
const knackCodeAttemptSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
knackCodeAttemptSchema.index({ at: 1 });

export const KnackCodeAttemptModel = model('KnackCodeAttempt', knackCodeAttemptSchema, 'knack_code_attempts');
