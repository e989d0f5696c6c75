/**
 * Earnings analytics and the listing-fee forecast, read from the daily rollups by `_id` (7 or 30 documents a chart),
 * and the daily tag prices set from them.
 */
import type { Types } from 'mongoose';
import type { AuthContext } from '../../lib/auth-context';
import { addDays, startOfUtcDay, utcDayOf } from '../../lib/calendar';
import { AppError, notFound } from '../../lib/errors';
import { changeRatePercent, knackPriceMicros, microsToUsd } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import { requireSelfOrAdmin } from '../../lib/permissions';
import { createTtlCache } from '../../lib/ttl-cache';
import { canView, contentReads, type ContentDoc } from '../contents';
import { LISTING_FEES, tierOf } from '../payments';
import { hasListedPlan } from '../subscriptions';
import { nextTagPrice, RECENT_DAYS, USUAL_DAYS, tagsService, type TagDoc, type TagType } from '../tags';
import { hostsDayId, memberDayId, pieceDayId, tagDayId, type DayRollup, type HostDayRollup, type HostShare } from './analytics.model';
import { rollupsById, tagKnacksOn } from './analytics.rollups';

export const ANALYTICS_MESSAGES = {
  notFound: 'This member does not exist.',
  needsPlan: 'Analytics come with a plan: see the plans on Pricing.',
  pieceNotFound: 'Content not found',
} as const;

export const PERIOD_DAYS = { week: 7, month: 30 } as const;
export type Period = keyof typeof PERIOD_DAYS;

/** The donut shows the member's three best tags of the category, and the rest as Other. */
const DONUT_TAGS = 3;
/** The category's tags listed beside the charts, most knacked first. */
const TOP_TAGS = 10;

/**
 * Answers are kept a minute per member and question: the rollups they read change only when the job runs (every few
 * minutes), which clears this cache in its process.
 */
const answers = createTtlCache<Schemas['EarningsAnalytics']>(60_000, { maxEntries: 5_000 });
export const clearAnalyticsAnswers = () => {
  answers.clear();
  hostAnswers.clear();
};

/** The days of a period ending today, oldest first, as `yyyy-mm-dd`. */
export function periodDays(period: Period, now: Date): string[] {
  const today = startOfUtcDay(now);
  return Array.from({ length: PERIOD_DAYS[period] }, (_, i) => utcDayOf(addDays(today, i - PERIOD_DAYS[period] + 1)));
}

const tagView = (tag: TagDoc) => ({
  id: String(tag._id),
  label: tag.label,
  price: microsToUsd(tag.priceMicros),
  knackPrice: microsToUsd(knackPriceMicros(tag.priceMicros)),
  rate: changeRatePercent(tag.diffPriceMicros, tag.priceMicros),
  totalReactedCount: tag.totalReactedCount,
});

/** The price of each day of `days` from a tag's history (the price in force at the day's end), oldest first. */
async function dailyPrices(tag: TagDoc, period: Period, days: string[], now: Date): Promise<Map<string, number>> {
  const history = await tagsService.getTagHistory(String(tag._id), period, now);
  const prices = new Map<string, number>();
  let index = 0;
  // Before its first entry of the period (a tag newer than the period), the tag's first price.
  let price = history[0]?.priceMicros ?? tag.priceMicros;
  for (const day of days) {
    const end = addDays(new Date(`${day}T00:00:00.000Z`), 1);
    while (index < history.length && history[index]!.createdAt < end) price = history[index++]!.priceMicros;
    prices.set(day, price);
  }
  return prices;
}

async function computeEarnings(userId: string, period: Period, type: TagType, tagId: string | undefined, now: Date): Promise<Schemas['EarningsAnalytics']> {
  const days = periodDays(period, now);
  const [rollups, allTags] = await Promise.all([rollupsById(days.map((day) => memberDayId(userId, day))), tagsService.listTags()]);
  const tagById = new Map(allTags.map((tag) => [String(tag._id), tag]));
  const ofType = (id: string) => tagById.get(id)?.type === type;

  // The member's earnings in the category, by tag and by day.
  const byTag = new Map<string, { knacks: number; earnedMicros: number }>();
  const perDay = days.map((day) => {
    const doc: DayRollup | undefined = rollups.get(memberDayId(userId, day));
    let earnedMicros = 0;
    let knacks = 0;
    for (const share of doc?.byTag ?? []) {
      if (!ofType(share.tagId)) continue;
      earnedMicros += share.earnedMicros;
      knacks += share.knacks;
      const sum = byTag.get(share.tagId) ?? { knacks: 0, earnedMicros: 0 };
      byTag.set(share.tagId, { knacks: sum.knacks + share.knacks, earnedMicros: sum.earnedMicros + share.earnedMicros });
    }
    return { day, earnedMicros, knacks };
  });
  const totalMicros = perDay.reduce((sum, day) => sum + day.earnedMicros, 0);
  const ranked = [...byTag].sort(([, a], [, b]) => b.earnedMicros - a.earnedMicros || b.knacks - a.knacks);
  const other = ranked.slice(DONUT_TAGS).reduce((sum, [, one]) => ({ knacks: sum.knacks + one.knacks, earnedMicros: sum.earnedMicros + one.earnedMicros }), {
    knacks: 0,
    earnedMicros: 0,
  });
  const share = (micros: number) => (totalMicros ? Math.round((micros * 10_000) / totalMicros) / 100 : 0);
  const donut = [
    ...ranked.slice(0, DONUT_TAGS).map(([id, one]) => ({ tagId: id, label: tagById.get(id)?.label ?? 'Other', ...one })),
    ...(other.knacks ? [{ tagId: null, label: 'Other', ...other }] : []),
  ].map((slice) => ({ ...slice, earned: microsToUsd(slice.earnedMicros), share: share(slice.earnedMicros) }));

  // The category's tags, most knacked first; the chosen tag (asked for, else the one that earned most, else the first).
  const categoryTags = allTags.filter((tag) => tag.type === type).sort((a, b) => b.totalReactedCount - a.totalReactedCount || a.position - b.position);
  const asked = tagId ? tagById.get(tagId) : undefined;
  if (tagId && !asked) throw notFound('Tag not found');
  const chosen = asked ?? (ranked[0] ? tagById.get(ranked[0][0]) : undefined) ?? categoryTags.find((tag) => tag.parentTag) ?? categoryTags[0];
  const prices = chosen ? await dailyPrices(chosen, period, days, now) : new Map<string, number>();

  const counted = [...rollups.values()].map((doc) => doc.countedAt).sort((a, b) => b.getTime() - a.getTime())[0];
  return {
    userId,
    period,
    type,
    from: days[0]!,
    to: days[days.length - 1]!,
    countedAt: counted ? counted.toISOString() : null,
    earned: microsToUsd(totalMicros),
    earnedMicros: totalMicros,
    knacks: perDay.reduce((sum, day) => sum + day.knacks, 0),
    days: perDay.map((day) => ({
      ...day,
      earned: microsToUsd(day.earnedMicros),
      tagPrice: prices.has(day.day) ? microsToUsd(prices.get(day.day)!) : null,
    })),
    byTag: donut,
    tag: chosen ? tagView(chosen) : null,
    topTags: categoryTags.slice(0, TOP_TAGS).map(tagView),
  };
}

/** The figures of the earnings analytics modal (see the contract's EarningsAnalytics). */
export async function earningsAnalytics(
  caller: AuthContext,
  userId: string,
  question: { period?: Period; type?: TagType; tagId?: string },
  now = new Date(),
): Promise<Schemas['EarningsAnalytics']> {
  requireSelfOrAdmin(caller, userId, ANALYTICS_MESSAGES.notFound);
  // A member needs a listed plan; an admin may read anyone's figures.
  if (caller.userId === userId && !(await hasListedPlan(userId))) throw new AppError(403, 'plan_required', ANALYTICS_MESSAGES.needsPlan);
  const { period = 'week', type = 'music', tagId } = question;
  return answers.get(`${userId}|${period}|${type}|${tagId ?? ''}|${utcDayOf(now)}`, () => computeEarnings(userId, period, type, tagId, now));
}

/** The sites an answer lists by name; the totals count them all. */
const HOSTS_LISTED = 20;

const hostAnswers = createTtlCache<Schemas['EmbedHostEarnings']>(60_000, { maxEntries: 5_000 });

async function computeHostEarnings(userId: string, period: Period, now: Date): Promise<Schemas['EmbedHostEarnings']> {
  const days = periodDays(period, now);
  const rollups = await rollupsById<HostDayRollup>(days.map((day) => hostsDayId(userId, day)));
  const bySite = new Map<string | null, HostShare>();
  for (const doc of rollups.values()) {
    for (const share of doc.hosts) {
      const sum = bySite.get(share.host) ?? { host: share.host, plays: 0, knacks: 0, earnedMicros: 0 };
      bySite.set(share.host, {
        host: share.host,
        plays: sum.plays + share.plays,
        knacks: sum.knacks + share.knacks,
        earnedMicros: sum.earnedMicros + share.earnedMicros,
      });
    }
  }
  const sites = [...bySite.values()];
  const ranked = sites.sort(
    (a, b) => b.earnedMicros - a.earnedMicros || b.plays - a.plays || b.knacks - a.knacks || String(a.host).localeCompare(String(b.host)),
  );
  const total = (field: 'plays' | 'knacks' | 'earnedMicros') => sites.reduce((sum, site) => sum + site[field], 0);
  const counted = [...rollups.values()].map((doc) => doc.countedAt).sort((a, b) => b.getTime() - a.getTime())[0];
  return {
    userId,
    period,
    from: days[0]!,
    to: days[days.length - 1]!,
    countedAt: counted ? counted.toISOString() : null,
    plays: total('plays'),
    knacks: total('knacks'),
    earned: microsToUsd(total('earnedMicros')),
    earnedMicros: total('earnedMicros'),
    hostsCount: sites.length,
    hosts: ranked.slice(0, HOSTS_LISTED).map((site) => ({ ...site, earned: microsToUsd(site.earnedMicros) })),
  };
}

/**
 * A member's plays and earnings by the site that framed the embeddable player, over a week or a month (see the
 * contract's EmbedHostEarnings): read from the period's 7 or 30 `hosts:` rollups by `_id`. For the member themself (no
 * plan needed: the wallet shows it) or an admin.
 */
export async function embedHostEarnings(
  caller: AuthContext,
  userId: string,
  question: { period?: Period },
  now = new Date(),
): Promise<Schemas['EmbedHostEarnings']> {
  requireSelfOrAdmin(caller, userId, ANALYTICS_MESSAGES.notFound);
  const { period = 'week' } = question;
  return hostAnswers.get(`${userId}|${period}|${utcDayOf(now)}`, () => computeHostEarnings(userId, period, now));
}

/** How sure a forecast can be: below these, it says there is too little data. */
const MIN_PIECE_KNACKS = 5;
const MIN_TAG_DAYS = 7;
const FORECAST_DAYS = 28;
/** The share of a knack that the one who paid the fee gets: all of it for the owner, 10% for a supporter. */
const OWNER_SHARE_PERCENT = 100 as const;
const SUPPORTER_SHARE_PERCENT = 10 as const;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))]!;

/** Knacks a day, with a low and a high estimate, from the piece's own days, or from its tag's when it has too few. */
async function knackRate(content: ContentDoc, tagId: Types.ObjectId | null, now: Date) {
  const today = startOfUtcDay(now);
  const uploaded = startOfUtcDay(content.uploadedAt);
  const observedDays = Math.max(1, Math.min(FORECAST_DAYS, Math.round((today.getTime() - uploaded.getTime()) / 86_400_000) + 1));
  const days = Array.from({ length: observedDays }, (_, i) => utcDayOf(addDays(today, -i)));
  const pieceDays = await rollupsById(days.map((day) => pieceDayId(String(content._id), day)));
  const knacks = [...pieceDays.values()].reduce((sum, doc) => sum + doc.knacks, 0);
  if (knacks >= MIN_PIECE_KNACKS) {
    // A count of independent events: its 95% range is about ±2 standard deviations, √n.
    const spread = 1.96 * Math.sqrt(knacks);
    return {
      basis: 'piece' as const,
      observedDays,
      observedKnacks: knacks,
      perDay: knacks / observedDays,
      low: Math.max(0, knacks - spread) / observedDays,
      high: (knacks + spread) / observedDays,
    };
  }
  if (!tagId) return { basis: null, observedDays, observedKnacks: knacks };
  const tagDays = Array.from({ length: FORECAST_DAYS }, (_, i) => utcDayOf(addDays(today, -i - 1)));
  const ofTag = await rollupsById(tagDays.map((day) => tagDayId(String(tagId), day)));
  // A typical piece of the tag: each day's knacks per piece knacked that day, their median and middle half.
  const perPiece = [...ofTag.values()]
    .filter((doc) => doc.pieces)
    .map((doc) => doc.knacks / doc.pieces!)
    .sort((a, b) => a - b);
  if (perPiece.length < MIN_TAG_DAYS) return { basis: null, observedDays, observedKnacks: knacks };
  return {
    basis: 'tag' as const,
    observedDays,
    observedKnacks: knacks,
    perDay: quantile(perPiece, 0.5),
    low: quantile(perPiece, 0.25),
    high: quantile(perPiece, 0.75),
  };
}

const daysToPay = (feeMicros: number, perDay: number, valueMicros: number) =>
  perDay > 0 && valueMicros > 0 ? Math.ceil(feeMicros / (perDay * valueMicros)) : null;

const usd = (micros: number) => `$${microsToUsd(micros).toFixed(2)}`;
const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * When the listing fee would pay back, for the caller paying it: the owner gets every knack's whole value once the
 * piece is listed, a supporter 10%. From the piece's knacks of up to the last 28 days (listed or not, every knack is
 * counted), or for a newer piece its tag's typical piece; too little of either says so.
 */
export async function listingForecast(caller: AuthContext, contentId: string, now = new Date()): Promise<Schemas['ListingForecast']> {
  const content = await contentReads.byId<ContentDoc>(contentId);
  if (!content || !(await canView(content, caller))) throw notFound(ANALYTICS_MESSAGES.pieceNotFound);
  const price = await tagsService.knackPriceNow(content);
  const feeMicros = LISTING_FEES[tierOf(content)];
  const sharePercent = String(content.ownerId) === caller.userId ? OWNER_SHARE_PERCENT : SUPPORTER_SHARE_PERCENT;
  const earnedPerKnack = Math.floor((price.knackMicros * sharePercent) / 100);
  const rate = await knackRate(content, price.tagId, now);
  const base = {
    contentId,
    fee: microsToUsd(feeMicros),
    feeMicros,
    knackPrice: microsToUsd(price.knackMicros),
    knackPriceMicros: price.knackMicros,
    sharePercent,
    observedDays: rate.observedDays,
    observedKnacks: rate.observedKnacks,
  };
  if (rate.basis === null) {
    return {
      ...base,
      status: 'too-little-data',
      basis: null,
      knacksPerDay: null,
      knacksPerDayLow: null,
      knacksPerDayHigh: null,
      days: null,
      daysLow: null,
      daysHigh: null,
      message: `Too little data to say yet: this piece has ${rate.observedKnacks} ${rate.observedKnacks === 1 ? 'knack' : 'knacks'}, and its tag too few active days, to tell when the ${usd(feeMicros)} fee pays back.`,
    };
  }
  const days = daysToPay(feeMicros, rate.perDay, earnedPerKnack);
  // The fastest payback comes from the most knacks a day, the slowest from the fewest.
  const daysLow = daysToPay(feeMicros, rate.high, earnedPerKnack);
  const daysHigh = daysToPay(feeMicros, rate.low, earnedPerKnack);
  const from = rate.basis === 'piece' ? "this piece's" : "a typical piece of its tag's";
  const when =
    days === null
      ? 'would not pay back at that rate'
      : `pays back in about ${days} ${days === 1 ? 'day' : 'days'}${daysLow !== null && daysHigh !== null && daysLow !== daysHigh ? ` (${daysLow}–${daysHigh})` : daysHigh === null ? ` (${daysLow ?? days} or more)` : ''}`;
  return {
    ...base,
    status: 'estimate',
    basis: rate.basis,
    knacksPerDay: round1(rate.perDay),
    knacksPerDayLow: round1(rate.low),
    knacksPerDayHigh: round1(rate.high),
    days,
    daysLow,
    daysHigh,
    message: `At ${usd(price.knackMicros)} a knack${sharePercent === 100 ? '' : ' (your 10%)'} and ${from} ${round1(rate.perDay)} ${round1(rate.perDay) === 1 ? 'knack' : 'knacks'} a day, the ${usd(feeMicros)} fee ${when}.`,
  };
}

/**
 * The day's prices by the market rule (tags module, price-rule.ts), once per tag and day: each tag's knacks of the
 * 7 days before today against the 28 before those, from the tag rollups. Answers how many tags this run priced.
 */
export async function applyDailyPrices(now = new Date()): Promise<number> {
  const today = utcDayOf(now);
  const start = startOfUtcDay(now);
  const days = (from: number, count: number) => Array.from({ length: count }, (_, i) => utcDayOf(addDays(start, -(from + i))));
  let week: Map<string, number> | undefined;
  let usual: Map<string, number> | undefined;
  let priced = 0;
  for (const tag of await tagsService.listTags()) {
    if (await tagsService.pricedOn(tag._id, today)) continue;
    week ??= await tagKnacksOn(days(1, RECENT_DAYS));
    usual ??= await tagKnacksOn(days(1 + RECENT_DAYS, USUAL_DAYS));
    const id = String(tag._id);
    const priceMicros = (await tagsService.priceNow(tag._id)) ?? tag.priceMicros;
    const next = nextTagPrice({ priceMicros, floorMicros: tagsService.floorPriceOf(tag), recentKnacks: week.get(id) ?? 0, usualKnacks: usual.get(id) ?? 0 });
    if (await tagsService.priceTagForDay(tag._id, today, next, now)) priced += 1;
  }
  return priced;
}
