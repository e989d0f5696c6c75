import mongoose, { Types } from 'mongoose';
import { notFound } from '../../lib/errors';
import { clearPublicResponses } from '../../lib/public-responses';
import { createTtlCache } from '../../lib/ttl-cache';
import { TagHistoryModel, TagModel, type TagDoc } from './tags.model';
import type { TagHistoryDoc } from './tags.model';

const DAY_MS = 24 * 60 * 60 * 1000;
export const HISTORY_PERIOD_DAYS = { week: 7, month: 30 } as const;
export type HistoryPeriod = keyof typeof HISTORY_PERIOD_DAYS;

/** "Hip Hop" -> "hip-hop", "R&B" -> "r-b", "A.I. Art" -> "a-i-art". */
export function slugify(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Tag lists are reference data read on every page and changed rarely, so each process keeps them for a
 * few seconds. The cache only saves reads: another instance sees a change within TAG_LIST_TTL_MS, and a
 * change made here clears it at once (invalidateTagLists).
 */
export const TAG_LIST_TTL_MS = 5_000;
const tagLists = createTtlCache(TAG_LIST_TTL_MS);

export function invalidateTagLists(): void {
  tagLists.clear();
  clearPublicResponses();
}

export function listTags(filter: { parent?: string } = {}): Promise<TagDoc[]> {
  return tagLists.get(filter.parent ?? '*', () => {
    const query = filter.parent ? { parentTag: new Types.ObjectId(filter.parent) } : {};
    return TagModel.find(query).sort({ position: 1, labelLower: 1 }).lean<TagDoc[]>().exec();
  });
}

export async function getTag(id: string): Promise<TagDoc> {
  const tag = await TagModel.findById(id).lean<TagDoc>();
  if (!tag) throw notFound('Tag not found');
  return tag;
}

export async function getTagByLabel(label: string): Promise<TagDoc> {
  const key = label.trim().toLowerCase();
  const tag = await TagModel.findOne({ $or: [{ labelLower: key }, { slug: slugify(key) }] }).lean<TagDoc>();
  if (!tag) throw notFound(`No tag is labelled "${label}"`);
  return tag;
}

export async function getTopSubTags(mainTagId: string, limit: number): Promise<TagDoc[]> {
  const main = await getTag(mainTagId);
  return TagModel.find({ parentTag: main._id }).sort({ totalReactedCount: -1, position: 1 }).limit(limit).lean<TagDoc[]>();
}

/**
 * The price history of a tag over the period: the price in force when the period began (if the tag
 * existed then), then every change inside the period, oldest first — what a price chart needs.
 */
export async function getTagHistory(tagId: string, period: HistoryPeriod, now = new Date()): Promise<Pick<TagHistoryDoc, 'createdAt' | 'priceMicros'>[]> {
  const tag = await getTag(tagId);
  const since = new Date(now.getTime() - HISTORY_PERIOD_DAYS[period] * DAY_MS);
  const [before, inside] = await Promise.all([
    TagHistoryModel.findOne({ tagId: tag._id, createdAt: mongoose.trusted({ $lt: since }) })
      .sort({ createdAt: -1 })
      .lean<TagHistoryDoc>(),
    TagHistoryModel.find({ tagId: tag._id, createdAt: mongoose.trusted({ $gte: since, $lte: now }) })
      .sort({ createdAt: 1 })
      .lean<TagHistoryDoc[]>(),
  ]);
  return before ? [{ createdAt: since, priceMicros: before.priceMicros }, ...inside] : inside;
}
