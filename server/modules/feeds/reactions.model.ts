import { Schema, model, type Types } from 'mongoose';

/**
 * Reactions to a piece per UTC day (`_id` `{contentId}:{yyyy-mm-dd}`), counted from the knack entries'
 * dates by the rankings job (feeds.rankings.ts, from the ledger's journal), which alone writes them: a knack does
 * not, so it costs one write less. Old days are kept (they are small) and simply fall out of the trending window.
 */
const reactionDaySchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    ownerId: { type: Schema.Types.ObjectId, required: true },
    day: { type: String, required: true },
    count: { type: Number, default: 0 },
    /** The journal number of the last knack counted in `count` (the rankings job counts each knack once by it). */
    through: { type: Number, default: 0 },
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
  through?: number;
}
export const ReactionDayModel = model<ReactionDayDoc>('ReactionDay', reactionDaySchema, 'reaction_days');
