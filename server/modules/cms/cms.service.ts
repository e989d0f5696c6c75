import mongoose from 'mongoose';
import { notFound } from '../../lib/errors';
import { NativePostModel, PageMetaModel, PageUiModel, type NativePostDoc, type PageMetaDoc, type PageUiDoc } from './cms.model';

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
