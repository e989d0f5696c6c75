import { Schema, model, type InferSchemaType, type Types } from 'mongoose';

const metaItem = new Schema({ property: { type: String, required: true }, content: { type: String, required: true } }, { _id: false });

const pageMetaSchema = new Schema(
  {
    page: { type: String, required: true, unique: true },
    title: { type: String, required: true },
    meta: { type: [metaItem], default: [] },
    facebook: { type: [metaItem], default: [] },
    twitter: { type: [metaItem], default: [] },
  },
  { timestamps: true },
);
export type PageMetaDoc = InferSchemaType<typeof pageMetaSchema>;
export const PageMetaModel = model('PageMeta', pageMetaSchema, 'page_metas');

const entry = new Schema({ name: { type: String, required: true }, link: { type: String, required: true } }, { _id: false });
const section = new Schema({ title: { type: String, required: true }, entries: { type: [entry], default: [] } }, { _id: false });

const pageUiSchema = new Schema(
  {
    name: { type: String, required: true, unique: true },
    sections: { type: [section], default: [] },
  },
  { timestamps: true },
);
export type PageUiDoc = InferSchemaType<typeof pageUiSchema> & { updatedAt: Date };
export const PageUiModel = model('PageUi', pageUiSchema, 'page_uis');

const nativePostSchema = new Schema(
  {
    slug: { type: String, required: true, unique: true },
    title: { type: String, required: true },
    excerpt: { type: String, default: '' },
    body: { type: String, required: true },
    status: { type: String, enum: ['draft', 'published'], default: 'draft' },
    publishedAt: { type: Date, default: null },
  },
  { timestamps: true },
);
export type NativePostDoc = InferSchemaType<typeof nativePostSchema> & { _id: Types.ObjectId };
export const NativePostModel = model('NativePost', nativePostSchema, 'native_posts');
