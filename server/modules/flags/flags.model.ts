import { Schema, model, type Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';

export type FlagReason = Schemas['FlagReason'];

/**
 * One member's flag on a piece. The `_id` is `{contentId}:{userId}`, so a member has one flag per piece however
 * often they flag it (flagging again changes the reason), and taking it back deletes that one document. An admin's
 * decision closes the piece's open flags (`resolvedAt`); a flag changed after that is open again.
 */
const flagSchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    reason: { type: String, required: true },
    at: { type: Date, required: true },
    resolvedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
flagSchema.index({ contentId: 1, resolvedAt: 1 });
flagSchema.index({ resolvedAt: 1, at: -1 });

export interface FlagDoc {
  _id: string;
  contentId: Types.ObjectId;
  userId: Types.ObjectId;
  reason: FlagReason;
  at: Date;
  resolvedAt: Date | null;
}

export const FlagModel = model<FlagDoc>('Flag', flagSchema, 'flags');

export const flagKey = (contentId: string, userId: string) => `${contentId}:${userId}`;

/**
 * A piece held off the public lists for review, claimed by inserting it (`_id` is the piece's id): of the flags that
 * reach the threshold at once, in any process, one inserts it, holds the piece and mails its owner. An admin's
 * decision deletes it, so that a later round of flags can hold the piece again.
 */
const holdSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export const FlagHoldModel = model('FlagHold', holdSchema, 'flag_holds');
