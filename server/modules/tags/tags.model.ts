import { readerOf } from '../../lib/query';
import { Schema, model, type InferSchemaType, type Types } from 'mongoose';

export const TAG_TYPES = ['music', 'art', 'photos'] as const;
export type TagType = (typeof TAG_TYPES)[number];

const tagSchema = new Schema(
  {
    label: { type: String, required: true, trim: true },
    /** Lower-cased label: the indexed key of label look-ups (no collation on FerretDB). */
    labelLower: { type: String, required: true, unique: true },
    slug: { type: String, required: true, unique: true },
    parentTag: { type: Schema.Types.ObjectId, ref: 'Tag', default: null },
    type: { type: String, enum: TAG_TYPES, required: true },
    priceMicros: { type: Number, required: true, default: 0, min: 0 },
    /** The last price change (new price minus old), in micro-dollars. */
    diffPriceMicros: { type: Number, required: true, default: 0 },
    /**
     * When `priceMicros` takes effect (null: it always was), and the price in force until then: a day's new price is
     * written a little before it is in force (tags.service.ts, PRICE_NOTICE_MS).
     */
    priceFrom: { type: Date, default: null },
    previousPriceMicros: { type: Number, default: null },
    totalReactedCount: { type: Number, required: true, default: 0, min: 0 },
    image: { type: String, default: null },
    /** Display order: main tags first, then sub-tags in their reference order (tags.seed.ts). */
    position: { type: Number, required: true, default: 1000 },
  },
  { timestamps: { createdAt: 'uploadedAt', updatedAt: 'updatedAt' } },
);
tagSchema.index({ position: 1, labelLower: 1 });
tagSchema.index({ parentTag: 1, totalReactedCount: -1 });

export type TagDoc = InferSchemaType<typeof tagSchema> & { _id: Types.ObjectId; uploadedAt: Date };
export const TagModel = model('Tag', tagSchema);

/**
 * A tag's prices: one entry per tag and day, `_id` `{tagId}:{yyyy-mm-dd}`, so the day's price is set once however
 * many instances run the job (an insert on a unique `_id`); the first price is the seed's, `{tagId}:seed`.
 */
const tagHistorySchema = new Schema({
  _id: { type: String, required: true },
  tagId: { type: Schema.Types.ObjectId, ref: 'Tag', required: true },
  priceMicros: { type: Number, required: true, min: 0 },
  /**
   * The price in force just before this one took effect: a chart's starting price, read from the period's first
   * entry, however long ago the entry before it was written. Absent on the seed's entry, and on entries written
   * before this field was (a reader then looks back a bounded number of days).
   */
  previousPriceMicros: { type: Number, min: 0 },
  createdAt: { type: Date, required: true, default: () => new Date() },
});
tagHistorySchema.index({ tagId: 1, createdAt: 1 });

export type TagHistoryDoc = InferSchemaType<typeof tagHistorySchema>;

/** The `_id` of a tag's price entry of a day (`yyyy-mm-dd`, or `seed` for its first price). */
export const priceEntryId = (tagId: unknown, day: string) => `${String(tagId)}:${day}`;
export const TagHistoryModel = model('TagHistory', tagHistorySchema, 'tag_history');

/** Tags as other modules may read them (they never write them). */
export const tagReads = readerOf<TagDoc>(TagModel);
