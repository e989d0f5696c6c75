import mongoose, { Types } from 'mongoose';
import type { AuthContext } from '../../lib/auth-context';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { badRequest, notFound } from '../../lib/errors';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import { requireAdmin } from '../../lib/permissions';
import { clearPublicResponses } from '../../lib/public-responses';
import type { Schemas } from '../../lib/openapi-types';
import { renderMarkdown } from './cms.markdown';
import {
  CMS_PAGE_SECTIONS,
  CmsPageModel,
  NativePostModel,
  PageMetaModel,
  PageUiModel,
  type CmsPageDoc,
  type CmsPageId,
  type NativePostDoc,
  type PageMetaDoc,
  type PageUiDoc,
} from './cms.model';

export const CMS_MESSAGES = {
  adminsOnly: 'Only admins can edit the pages.',
  pageMissing: 'This page does not exist.',
  pageSaved: 'The page is saved. Visitors see it now.',
  postSaved: 'The post is saved as a draft.',
  postPublished: 'The post is published.',
  postIncomplete: 'A post needs a title and a body.',
  sectionsOwn: (keys: readonly string[]) => `The sections must be the page's own: ${keys.join(', ')}.`,
} as const;

export async function getPageMeta(page: string): Promise<PageMetaDoc> {
  const doc = await PageMetaModel.findOne({ page }).lean<PageMetaDoc>();
  if (!doc) throw notFound(`No metadata for page "${page}"`);
  return doc;
}

export async function getPageUi(name: string): Promise<PageUiDoc> {
  const doc = await PageUiModel.findOne({ name }).lean<PageUiDoc>();
  if (!doc) throw notFound(`No page UI named "${name}"`);
  return doc;
}

/** Only published posts are visible; a draft answers 404 like a missing post. */
export async function getPublishedPost(slug: string, now = new Date()): Promise<NativePostDoc> {
  const doc = await NativePostModel.findOne({ slug, status: 'published', publishedAt: mongoose.trusted({ $lte: now }) }).lean<NativePostDoc>();
  if (!doc) throw notFound(`No post "${slug}"`);
  return doc;
}

async function pageDoc(id: CmsPageId): Promise<CmsPageDoc> {
  const doc = await CmsPageModel.findById(id).lean<CmsPageDoc>();
  if (!doc) throw notFound(CMS_MESSAGES.pageMissing);
  return doc;
}

/** A content page as visitors read it: each section's Markdown rendered to sanitised HTML. */
export async function getPage(id: CmsPageId): Promise<Schemas['CmsPage']> {
  const doc = await pageDoc(id);
  return {
    id: doc._id,
    title: doc.title,
    description: doc.description,
    sections: doc.sections.map(({ key, title, body }) => ({ key, title, html: renderMarkdown(body) })),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

const pageSource = (doc: CmsPageDoc): Schemas['CmsPageSource'] => ({
  id: doc._id,
  title: doc.title,
  description: doc.description,
  sections: doc.sections.map(({ key, title, body }) => ({ key, title, body })),
  updatedAt: doc.updatedAt.toISOString(),
});

export async function getPageSource(caller: AuthContext, id: CmsPageId): Promise<Schemas['CmsPageSource']> {
  requireAdmin(caller, CMS_MESSAGES.adminsOnly);
  return pageSource(await pageDoc(id));
}

/**
 * Replaces a page's title, description and sections (the page's own keys, in its order). A whole-page write by
 * `_id`: two editors saving at once leave one of the two pages whole, never a mix.
 */
export async function updatePage(caller: AuthContext, id: CmsPageId, input: Schemas['CmsPageSourceInput']) {
  requireAdmin(caller, CMS_MESSAGES.adminsOnly);
  const keys = CMS_PAGE_SECTIONS[id];
  if (input.sections.length !== keys.length || input.sections.some((section, index) => section.key !== keys[index])) {
    throw badRequest(CMS_MESSAGES.sectionsOwn(keys), [{ path: 'sections', message: CMS_MESSAGES.sectionsOwn(keys) }]);
  }
  const before = await pageDoc(id);
  const sections = input.sections.map(({ key, title, body }) => ({ key, title: title.trim(), body }));
  const saved = (await CmsPageModel.findByIdAndUpdate(
    id,
    { $set: { title: input.title.trim(), description: input.description.trim(), sections, updatedBy: new Types.ObjectId(caller.userId) } },
    { new: true },
  ).lean<CmsPageDoc>())!;
  clearPublicResponses();
  const changed = sections.filter((section, index) => section.title !== before.sections[index]?.title || section.body !== before.sections[index]?.body);
  return { page: pageSource(saved), before, changedSections: changed.map((section) => section.key) };
}

/** How many published posts a blog page lists at most. */
const POST_PAGE_MAX = 50;

/**
 * The blog's published posts, the newest first, without their bodies. Posts are few (an editor writes them): the
 * published ones are read whole (on FerretDB a filter reads the collection anyway) and paged here by
 * (publishedAt, slug).
 */
export async function listPublishedPosts(query: { cursor?: string; limit?: number }, now = new Date()) {
  const limit = Math.min(query.limit ?? 20, POST_PAGE_MAX);
  const after = decodePageCursor('native-posts', query.cursor, (at, slug) =>
    Number.isSafeInteger(at) && typeof slug === 'string' ? { at: at as number, slug } : null,
  );
  const posts = await NativePostModel.find(
    { status: 'published', publishedAt: mongoose.trusted({ $lte: now }) },
    { slug: 1, title: 1, excerpt: 1, publishedAt: 1 },
  ).lean<Pick<NativePostDoc, 'slug' | 'title' | 'excerpt' | 'publishedAt'>[]>();
  const ordered = posts
    .map((post) => ({ ...post, at: (post.publishedAt ?? new Date(0)).getTime() }))
    .sort((a, b) => b.at - a.at || (a.slug < b.slug ? 1 : -1))
    .filter((post) => !after || post.at < after.at || (post.at === after.at && post.slug < after.slug));
  const page = ordered.slice(0, limit);
  const last = page[page.length - 1];
  return {
    posts: page.map(({ slug, title, excerpt, at }) => ({ slug, title, excerpt, publishedAt: new Date(at).toISOString() })),
    nextCursor: ordered.length > limit && last ? encodePageCursor('native-posts', last.at, last.slug) : null,
  };
}

const postSource = (doc: NativePostDoc): Schemas['NativePostSource'] => ({
  slug: doc.slug,
  title: doc.title,
  excerpt: doc.excerpt,
  body: doc.body,
  status: doc.status,
  publishedAt: doc.publishedAt ? doc.publishedAt.toISOString() : null,
  updatedAt: (doc.updatedAt ?? doc.publishedAt ?? new Date(0)).toISOString(),
});

/** Every post, drafts too, the latest changed first (at most 500: an editor's list, not a feed). */
export async function listAllPosts(caller: AuthContext): Promise<Schemas['NativePostSource'][]> {
  requireAdmin(caller, CMS_MESSAGES.adminsOnly);
  const posts = await NativePostModel.find({}).sort({ updatedAt: -1 }).limit(500).lean<NativePostDoc[]>();
  return posts.map(postSource);
}

/**
 * Writes a post at `slug`, or changes it. Publishing a post that is not published sets its publication time to now;
 * an edit of a published post keeps it. The slug's unique index decides between two first saves of one slug.
 */
export async function savePost(caller: AuthContext, slug: string, input: Schemas['NativePostInput'], now = new Date()) {
  requireAdmin(caller, CMS_MESSAGES.adminsOnly);
  const title = input.title.trim();
  if (!title || !input.body.trim()) throw badRequest(CMS_MESSAGES.postIncomplete, [{ path: title ? 'body' : 'title', message: CMS_MESSAGES.postIncomplete }]);
  const fields = { title, excerpt: input.excerpt.trim(), body: input.body, status: input.status };
  const write = async () => {
    const before = await NativePostModel.findOne({ slug }).lean<NativePostDoc>();
    const publishedAt = input.status === 'published' && before?.status !== 'published' ? now : (before?.publishedAt ?? null);
    if (!before) return { before, saved: (await NativePostModel.create({ slug, ...fields, publishedAt })).toObject() as NativePostDoc };
    const saved = await NativePostModel.findOneAndUpdate({ slug }, { $set: { ...fields, publishedAt } }, { new: true }).lean<NativePostDoc>();
    return { before, saved: saved! };
  };
  let result: Awaited<ReturnType<typeof write>>;
  try {
    result = await write();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    result = await write(); // another first save of this slug won: change it
  }
  clearPublicResponses();
  return { post: postSource(result.saved), before: result.before, message: input.status === 'published' ? CMS_MESSAGES.postPublished : CMS_MESSAGES.postSaved };
}

/** The HTML that `markdown` would show as, for an editor's preview. */
export function previewMarkdown(caller: AuthContext, markdown: string): string {
  requireAdmin(caller, CMS_MESSAGES.adminsOnly);
  return renderMarkdown(markdown);
}
