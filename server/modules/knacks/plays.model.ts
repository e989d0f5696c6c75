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
 * A member's knack window (`_id` the member): the times of their last knacks (at most 10, enough to tell
 * "more than 9 in 24 hours" without counting the ledger), and the emailed 4-digit code they give past that:
 * kept as an HMAC, for 15 minutes and 5 attempts. `verifiedAt` starts a new count of recent knacks.
 */
const knackCodeSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    codeHash: { type: String, default: null },
    expiresAt: { type: Date, default: null },
    attempts: { type: Number, default: 0 },
    verifiedAt: { type: Date, default: null },
    recentAt: { type: [Date], default: [] },
  },
  { versionKey: false },
);

export interface KnackCodeDoc {
  _id: Types.ObjectId;
  codeHash: string | null;
  expiresAt: Date | null;
  attempts: number;
  verifiedAt: Date | null;
  recentAt?: Date[];
}

export const KnackCodeModel = model<KnackCodeDoc>('KnackCode', knackCodeSchema, 'knack_codes');
