import { Schema, model } from 'mongoose';

/**
 * One embed play counted: `_id` is `play:{contentId}:{visitor}:{yyyy-mm-dd}` (UTC day), so a visitor's
 * second play of the day, or a concurrent duplicate, hits the unique `_id` and counts nothing.
 */
const embedPlaySchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: Schema.Types.ObjectId, ref: 'Content', required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
embedPlaySchema.index({ contentId: 1 });

export const EmbedPlayModel = model('EmbedPlay', embedPlaySchema, 'embed_plays');
