import { Schema, model, type Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';

export type FlagReason = Schemas['FlagReason'];

/**
 * One member's flag on a piece. The `_id` is `{contentId}:{userId}`, so a member has one flag per piece however
 * often they flag it (flagging again changes the reason), and taking it back deletes that one document. An admin's
 * decision closes the piece's open flags (`resolvedAt`) and notes the version of the piece reviewed: the flag stays
 * closed, and its member cannot flag the piece again, until the piece differs from that version.
 */
const flagSchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    reason: { type: String, required: true },
    at: { type: Date, required: true },
    /** Whether it counts toward holding the piece: decided when the member flagged (flags.counting.ts). */
    counts: { type: Boolean, default: false },
    resolvedAt: { type: Date, default: null },
    /** The piece's version (pieceVersion) that the admin's decision was about. */
    reviewedVersion: { type: String, default: null },
  },
  { versionKey: false },
);
flagSchema.index({ contentId: 1, resolvedAt: 1 });
flagSchema.index({ resolvedAt: 1, at: -1 });
flagSchema.index({ userId: 1 });

export interface FlagDoc {
  _id: string;
  contentId: Types.ObjectId;
  userId: Types.ObjectId;
  reason: FlagReason;
  at: Date;
  /** Absent on flags recorded before flags were weighed: those do not count. */
  counts?: boolean;
  resolvedAt: Date | null;
  /** Absent on flags closed before versions were noted: those stay closed. */
  reviewedVersion?: string | null;
}

export const FlagModel = model<FlagDoc>('Flag', flagSchema, 'flags');

export const flagKey = (contentId: string, userId: string) => `${contentId}:${userId}`;

/**
 * A piece held off the public lists for review, claimed by inserting it (`_id` is the piece's id): of the flags that
 * reach the threshold at once, in any process, one inserts it, holds the piece and may mail its owner. An admin's
 * decision deletes it, and so does a fall below the threshold (a flag taken back, an account deleted), so that a
 * later round of flags can hold the piece again.
 */
const holdSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export const FlagHoldModel = model('FlagHold', holdSchema, 'flag_holds');

/**
 * The mail to a piece's owner that it is held, claimed by inserting `flag-mail:{contentId}:{isoWeek}`: a piece held,
 * listed again and held again in one ISO week mails its owner once, however many processes hold it at once.
 */
const mailClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export const FlagMailClaimModel = model('FlagMailClaim', mailClaimSchema, 'flag_mails');
