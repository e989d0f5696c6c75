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
export type NativePostDoc = InferSchemaType<typeof nativePostSchema> & { _id: Types.ObjectId; updatedAt?: Date };
export const NativePostModel = model('NativePost', nativePostSchema, 'native_posts');

/**
 * A content page (How It Works, Earn, User Guide) by its key, read by `_id`. Its sections are fixed per page, since
 * each section's key is an address (`/become/creators`); an editor changes their titles and Markdown.
 */
const cmsSectionSchema = new Schema(
  { key: { type: String, required: true }, title: { type: String, required: true }, body: { type: String, default: '' } },
  { _id: false },
);

const cmsPageSchema = new Schema(
  {
    _id: { type: String, required: true },
    title: { type: String, required: true },
    description: { type: String, default: '' },
    sections: { type: [cmsSectionSchema], default: [] },
    updatedBy: { type: Schema.Types.ObjectId, default: null },
  },
  { timestamps: true, versionKey: false },
);

export interface CmsPageDoc {
  _id: CmsPageId;
  title: string;
  description: string;
  sections: { key: string; title: string; body: string }[];
  updatedBy: Types.ObjectId | null;
  updatedAt: Date;
}
export const CmsPageModel = model<CmsPageDoc>('CmsPage', cmsPageSchema, 'cms_pages');

/** The content pages and their sections in order: the last segment of `/become/…`, `/earning/…`, `/user-guide/…`. */
export const CMS_PAGE_SECTIONS = {
  become: ['listeners', 'creators', 'supporters'],
  earning: ['normal', 'faq'],
  'user-guide': ['introduction', 'title-box', 'showcase', 'nav-menu', 'rules'],
} as const;
export type CmsPageId = keyof typeof CMS_PAGE_SECTIONS;
