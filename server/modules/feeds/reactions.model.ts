import { Schema, model, type Types } from 'mongoose';

/**
 * Reactions to a piece per UTC day (`_id` `{contentId}:{yyyy-mm-dd}`): what the trending window sums.
 * Old days are kept (they are small) and simply fall out of the window.
 */
const reactionDaySchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    ownerId: { type: Schema.Types.ObjectId, required: true },
    day: { type: String, required: true },
    count: { type: Number, default: 0 },
  },
  { versionKey: false },
);
reactionDaySchema.index({ day: 1 });

export interface ReactionDayDoc {
  _id: string;
  contentId: Types.ObjectId;
  ownerId: Types.ObjectId;
  day: string;
  count: number;
}
export const ReactionDayModel = model<ReactionDayDoc>('ReactionDay', reactionDaySchema, 'reaction_days');
