import { Schema, model, type InferSchemaType, type Types } from 'mongoose';

const settingSchema = new Schema(
  {
    public: { type: Boolean, default: true },
    private: { type: Boolean, default: false },
    followers: { type: Boolean, default: false },
    hidePlayCount: { type: Boolean, default: false },
    hideViewCount: { type: Boolean, default: false },
  },
  { _id: false },
);

/** A piece: a song (with its cover) or an image, under one main tag and a sub-tag. */
const contentSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    payerId: { type: Schema.Types.ObjectId, ref: 'User', default: null },
    title: { type: String, required: true },
    description: { type: String, required: true },
    /** One main tag (the category) as `{ name }`, as the spec's content has it. */
    tags: { type: [new Schema({ name: { type: String, required: true } }, { _id: false })], required: true },
    subTag: { type: String, default: '' },
    type: { type: String, enum: ['music', 'art', 'photos'], required: true },
    photoUploadId: { type: Schema.Types.ObjectId, ref: 'Upload', required: true },
    audioUploadId: { type: Schema.Types.ObjectId, ref: 'Upload', default: null },
    /** Published through the artist-page flow (spec: isOrlando) or to the Top 50 chart. */
    isOrlando: { type: Boolean, default: false },
    isTop50: { type: Boolean, default: false },
    top50Email: { type: String, default: null },
    isPaidOut: { type: Boolean, default: false },
    isHide: { type: Boolean, default: false },
    setting: { type: settingSchema, default: () => ({}) },
    /** What one knack of this piece is worth (its sub-tag's knack price when published). */
    knackRateMicros: { type: Number, required: true },
    reactedCount: { type: Number, default: 0 },
    projectId: { type: Schema.Types.ObjectId, default: null },
  },
  { timestamps: { createdAt: 'uploadedAt', updatedAt: 'updatedAt' } },
);
contentSchema.index({ ownerId: 1, uploadedAt: -1 });

export type ContentDoc = InferSchemaType<typeof contentSchema> & { _id: Types.ObjectId; uploadedAt: Date };
export const ContentModel = model('Content', contentSchema, 'contents');
