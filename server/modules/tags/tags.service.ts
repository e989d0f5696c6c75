import { Types } from 'mongoose';
import { notFound } from '../../lib/errors';
import { clearPublicResponses } from '../../lib/public-responses';
import { knackPriceMicros, tagPriceForKnackPrice } from '../../lib/money';
import { addDays, DAY_MS, startOfUtcDay, utcDayOf } from '../../lib/calendar';
import { insertWhole, readById } from '../../lib/query';
import { createTtlCache } from '../../lib/ttl-cache';
import { seedKnackPriceMicros } from './price-rule';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { priceEntryId, TagHistoryModel, TagModel, type TagDoc } from './tags.model';
import type { TagHistoryDoc } from './tags.model';

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
 * How far before a period its starting price is looked for in entries that do not carry the price before them
 * (written before they did): the daily prices job writes every tag's entry each day, so the entry in force when the
 * period began is normally the day before it.
 */
const HISTORY_LOOKBACK_DAYS = 31;

type PricePoint = Pick<TagHistoryDoc, 'createdAt' | 'priceMicros'>;

/**
 * The price history of a tag over the period: the price in force when the period began (if the tag
 * existed then), then every change inside the period, oldest first — what a price chart needs.
 *
 * The tag's entries are keyed by day (`priceEntryId`), so the period's days are each read by `_id` (with the seed's
 * first price): about 30 reads whatever the history's length, where a filter on `tagId` would read every tag's
 * history. The starting price is the one the period's first entry says was in force before it; with no entry in the
 * period, the tag's own price in force then. Entries written before they said so are looked back on for
 * HISTORY_LOOKBACK_DAYS more days; a tag left unpriced for longer than that then shows no starting price.
 */
export async function getTagHistory(tagId: string, period: HistoryPeriod, now = new Date()): Promise<PricePoint[]> {
  const tag = await getTag(tagId);
  const since = new Date(now.getTime() - HISTORY_PERIOD_DAYS[period] * DAY_MS);
  const entriesFrom = async (first: Date, last: Date) => {
    const days = Array.from({ length: Math.round((last.getTime() - first.getTime()) / DAY_MS) + 1 }, (_, i) => utcDayOf(addDays(first, i)));
    const read = await Promise.all(days.map((day) => readById<TagHistoryDoc>(TagHistoryModel, priceEntryId(tag._id, day))));
    return read.filter((entry) => entry !== null);
  };
  const byTime = (a: PricePoint, b: PricePoint) => a.createdAt.getTime() - b.createdAt.getTime();
  // An entry takes effect PRICE_NOTICE_MS after it is written, so the day before the period's may be in force in it.
  const [seed, recent] = await Promise.all([
    readById<TagHistoryDoc>(TagHistoryModel, priceEntryId(tag._id, 'seed')),
    entriesFrom(startOfUtcDay(addDays(since, -1)), startOfUtcDay(now)),
  ]);
  const known = [...(seed ? [seed] : []), ...recent].sort(byTime);
  const inside = known.filter((entry) => entry.createdAt >= since && entry.createdAt <= now).map(({ createdAt, priceMicros }) => ({ createdAt, priceMicros }));
  const start = (priceMicros: number) => [{ createdAt: since, priceMicros }, ...inside];

  const lastBefore = known.filter((entry) => entry.createdAt < since).at(-1);
  if (lastBefore && lastBefore !== seed) return start(lastBefore.priceMicros);
  const firstInside = known.find((entry) => entry.createdAt >= since);
  if (firstInside?.previousPriceMicros != null) return start(firstInside.previousPriceMicros);
  if (!firstInside) return seed || tag.priceFrom ? start(priceInForce(tag, since)) : [];
  if (firstInside === seed) return inside;
  // Entries from before they carried the price before them: the last one in the lookback before the period, or the
  // seed's when it is that old and nothing came between (every day read).
  const firstDay = startOfUtcDay(addDays(since, -HISTORY_LOOKBACK_DAYS));
  const older = (await entriesFrom(firstDay, startOfUtcDay(addDays(since, -2)))).sort(byTime).at(-1);
  if (older) return start(older.priceMicros);
  return seed && seed.createdAt >= firstDay ? start(seed.priceMicros) : inside;
}

/** A piece as its pricing sees it: its sub-tag's label ('' for none) and its main tag. */
export interface PricedPiece {
  subTag?: string | null;
  tags: { name: string }[];
}

/** The tag that prices a piece: its sub-tag, or its main tag when it has none. Null for a label no tag has. */
export async function pricingTagOf(piece: PricedPiece): Promise<TagDoc | null> {
  const label = (piece.subTag || piece.tags[0]?.name || '').trim().toLowerCase();
  if (!label) return null;
  return (await listTags()).find((tag) => tag.labelLower === label) ?? null;
}

/** The least a tag's price may be (the market's floor): its baseline, which shows a $0.05 knack, or $0.99 for premium tags. */
export const floorPriceOf = (tag: Pick<TagDoc, 'label'>) => tagPriceForKnackPrice(seedKnackPriceMicros(tag.label));

/**
 * A day's new price takes effect this long after it is written. That is longer than any process keeps the tag lists
 * (TAG_LIST_TTL_MS), so every instance holds the new price, with the time it takes effect, before it is in force:
 * a knack then reads the price in force from the list in memory, exactly, without a read of its own.
 */
export const PRICE_NOTICE_MS = 60_000;

/** A tag's price in force at `at`: the new price from `priceFrom` on, the one before it until then. */
export function priceInForce(tag: Pick<TagDoc, 'priceMicros' | 'priceFrom' | 'previousPriceMicros'>, at: Date): number {
  return tag.priceFrom && at < tag.priceFrom && tag.previousPriceMicros != null ? tag.previousPriceMicros : tag.priceMicros;
}

export interface KnackPrice {
  /** The tag whose price set it (null when the piece's tag no longer exists: the default value). */
  tagId: Types.ObjectId | null;
  knackMicros: number;
}

/** What one knack of the piece is worth at `at`: 8% of its tag's price in force then, truncated to the cent. */
export async function knackPriceNow(piece: PricedPiece, at = new Date()): Promise<KnackPrice> {
  const tag = await pricingTagOf(piece);
  if (!tag) return { tagId: null, knackMicros: knackPriceMicros(null) };
  return { tagId: tag._id, knackMicros: knackPriceMicros(priceInForce(tag, at)) };
}

/**
 * Each tag's knacks of all time, as the earnings-rollups job counts them (their one writer): a tag whose figure
 * changed is written, and the lists kept for a few seconds are cleared. Answers how many tags changed.
 */
export async function setKnackTotals(totals: Map<string, number>): Promise<number> {
  let changed = 0;
  for (const tag of await listTags()) {
    const total = totals.get(String(tag._id)) ?? 0;
    if (tag.totalReactedCount === total) continue;
    await TagModel.updateOne({ _id: tag._id }, { $set: { totalReactedCount: total } });
    changed += 1;
  }
  if (changed) invalidateTagLists();
  return changed;
}

/** Whether the tag's price of `day` (`yyyy-mm-dd`) is set. */
export const pricedOn = async (tagId: Types.ObjectId, day: string) => Boolean(await readById(TagHistoryModel, priceEntryId(tagId, day), { _id: 1 }));

/** A tag's price now, read by `_id` (not from the lists kept for a few seconds). */
export async function priceNow(tagId: Types.ObjectId): Promise<number | null> {
  return (await readById<Pick<TagDoc, 'priceMicros'>>(TagModel, tagId, { priceMicros: 1 }))?.priceMicros ?? null;
}

/**
 * Sets the tag's price of the day, once: its history entry for the day is inserted (a unique `_id`, so of two runs
 * one wins), then the tag takes the price, with the change from the one before as its `diffPrice`. A run that finds
 * the day priced makes sure the tag shows that price (a run stopped between the two writes). Answers whether this
 * call priced the day.
 */
export async function priceTagForDay(tagId: Types.ObjectId, day: string, priceMicros: number, now: Date): Promise<boolean> {
  const tag = await readById<Pick<TagDoc, 'priceMicros' | 'priceFrom' | 'previousPriceMicros'>>(TagModel, tagId, {
    priceMicros: 1,
    priceFrom: 1,
    previousPriceMicros: 1,
  });
  if (!tag) throw notFound('Tag not found');
  const before = priceInForce(tag, now);
  const _id = priceEntryId(tagId, day);
  // The history's time is when the price takes effect.
  let from = new Date(now.getTime() + PRICE_NOTICE_MS);
  let priced = true;
  try {
    await insertWhole(TagHistoryModel, { _id, tagId, priceMicros, previousPriceMicros: before, createdAt: from });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    priced = false;
    const entry = await readById<Pick<TagHistoryDoc, 'priceMicros' | 'createdAt'>>(TagHistoryModel, _id, { priceMicros: 1, createdAt: 1 });
    priceMicros = entry!.priceMicros;
    from = entry!.createdAt;
  }
  if (priced || tag.priceMicros !== priceMicros) {
    await TagModel.updateOne({ _id: tagId }, { $set: { priceMicros, previousPriceMicros: before, priceFrom: from, diffPriceMicros: priceMicros - before } });
    invalidateTagLists();
  }
  return priced;
}
