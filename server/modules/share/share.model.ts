import { Schema, model, type Types } from 'mongoose';

/**
 * One embed play counted: `_id` is `play:{contentId}:{visitor}:{yyyy-mm-dd}` (UTC day), so a visitor's
 * second play of the day, or a concurrent duplicate, hits the unique `_id` and counts nothing. It also keeps the
 * piece's owner and the site that framed the player when it was played (lib/embed-host.ts), which the earnings-rollups
 * job counts by member and site; plays recorded before these were kept have neither.
 */
const embedPlaySchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: Schema.Types.ObjectId, ref: 'Content', required: true },
    at: { type: Date, required: true },
    ownerId: { type: Schema.Types.ObjectId, default: undefined },
    /** The framing page's site; absent for Knack itself (or a page that withheld its address). */
    host: { type: String, default: undefined },
  },
  { versionKey: false },
);
embedPlaySchema.index({ contentId: 1 });
// The earnings-rollups job reads the plays of the days it counts.
embedPlaySchema.index({ at: 1 });

export interface EmbedPlayDoc {
  _id: string;
  contentId: Types.ObjectId;
  at: Date;
  ownerId?: Types.ObjectId;
  host?: string;
}

export const EmbedPlayModel = model<EmbedPlayDoc>('EmbedPlay', embedPlaySchema, 'embed_plays');
