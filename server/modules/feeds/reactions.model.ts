import { Schema, model, type Types } from 'mongoose';

/**
 * Reactions to a piece per UTC day (`_id` `{contentId}:{yyyy-mm-dd}`), counted from the knack entries'
 * dates by the refresh job (feeds.rankings.ts), which alone writes them: a knack does not, so it costs one
 * write less. Old days are kept (they are small) and simply fall out of the trending window.
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
