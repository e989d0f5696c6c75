/**
 * The admin-stats job: counts each UTC day's figures from the facts inserted that day and sums each month from its
 * days. Every document is counted whole and written over the last one (never added to), so a run repeated, or run
 * again after a crash, writes the same figures. A run recounts today and yesterday (an entry written just before
 * midnight may have arrived after the last count), and any day since the start of yesterday's month that has no
 * document yet (the first run, or days the job did not run); a closed day once counted is kept. A day's ledger entries
 * are read by `_id` from the ledger's list of the day (kept from the journal), so a run reads the days it counts, not
 * the whole ledger.
 */
import { Types } from 'mongoose';
import { anyOf, ours } from '../../lib/query';
import { comparedState, type KeptStateReport, noteDifference } from '../../lib/kept-state';
import { creditedBy, entriesBetween, entriesOfDay, syncLedgerDays, type LedgerEntryDoc } from '../ledger';
import { contentReads } from '../contents';
import { userReads } from '../users';
import { AdminStatsModel, adminStatsReads, type AdminFigures, type AdminStatsDoc } from './dashboard.model';
import { startOfUtcDay, startOfUtcMonth, utcDayOf } from '../../lib/calendar';

const DAY_MS = 86_400_000;

export const EMPTY_FIGURES: AdminFigures = {
  members: 0,
  pieces: 0,
  knacks: 0,
  listings: 0,
  listingFeesMicros: 0,
  knackValueMicros: 0,
  payouts: 0,
  payoutsMicros: 0,
};

export { startOfUtcDay };
export const dayKey = (at: Date) => `day:${utcDayOf(at)}`;
export const monthKey = (at: Date) => `month:${at.toISOString().slice(0, 7)}`;

/** What the ledger entries of one day add up to. */
export function figuresOfEntries(entries: Pick<LedgerEntryDoc, 'kind' | 'legs' | 'method' | 'amountMicros'>[]): Omit<AdminFigures, 'members' | 'pieces'> {
  const figures = { knacks: 0, listings: 0, listingFeesMicros: 0, knackValueMicros: 0, payouts: 0, payoutsMicros: 0 };
  for (const entry of entries) {
    if (entry.kind === 'knack') {
      figures.knacks += 1;
      figures.knackValueMicros += creditedBy(entry);
    } else if ((entry.kind === 'listing' || entry.kind === 'relisting') && entry.method) {
      figures.listings += 1;
      if (entry.method === 'card') figures.listingFeesMicros += entry.amountMicros ?? 0;
    } else if (entry.kind === 'payout' || entry.kind === 'cash-out') {
      figures.payouts += 1;
      figures.payoutsMicros += entry.amountMicros ?? 0;
    }
  }
  return figures;
}

/** Documents made in [from, to): their ids are ObjectIds, which start with the second they were made. */
const madeBetween = (from: Date, to: Date) =>
  ours({ _id: { $gte: Types.ObjectId.createFromTime(from.getTime() / 1000), $lt: Types.ObjectId.createFromTime(to.getTime() / 1000) } });

/** What a recount read once for all its days: the ledger entries, and the members and pieces made, by day. */
interface Recounted {
  entries: Map<string, LedgerEntryDoc[]>;
  members: Map<string, number>;
  pieces: Map<string, number>;
}

/** One day's figures, counted from what was inserted that day (its ledger entries read by `_id` from the ledger's list of the day). */
async function countDay(day: Date, recounted?: Recounted): Promise<AdminFigures> {
  const end = new Date(day.getTime() + DAY_MS);
  const key = utcDayOf(day);
  if (recounted)
    return { members: recounted.members.get(key) ?? 0, pieces: recounted.pieces.get(key) ?? 0, ...figuresOfEntries(recounted.entries.get(key) ?? []) };
  const [entries, members, pieces] = await Promise.all([
    entriesOfDay(key),
    userReads.many(madeBetween(day, end), { projection: { _id: 1 } }),
    contentReads.many(madeBetween(day, end), { projection: { _id: 1 } }),
  ]);
  return { members: members.length, pieces: pieces.length, ...figuresOfEntries(entries) };
}

/** How many of `made` (ids, which start with the second they were made) were made on each UTC day. */
function madePerDay(made: { _id: Types.ObjectId }[]): Map<string, number> {
  const perDay = new Map<string, number>();
  for (const { _id } of made) {
    const day = utcDayOf(_id.getTimestamp());
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  return perDay;
}

const sum = (all: AdminFigures[]): AdminFigures =>
  all.reduce(
    (total, one) => Object.fromEntries(Object.entries(total).map(([key, value]) => [key, value + one[key as keyof AdminFigures]])) as unknown as AdminFigures,
    { ...EMPTY_FIGURES },
  );

const write = (doc: AdminStatsDoc) => AdminStatsModel.replaceOne({ _id: doc._id }, doc, { upsert: true });

/** The days the dashboard keeps: from the start of yesterday's month to today. */
function keptDays(now: Date): { days: Date[]; yesterday: Date } {
  const today = startOfUtcDay(now);
  const yesterday = new Date(today.getTime() - DAY_MS);
  const days: Date[] = [];
  for (let day = startOfUtcMonth(yesterday); day <= today; day = new Date(day.getTime() + DAY_MS)) days.push(day);
  return { days, yesterday };
}

/** Counts the days and months the dashboard shows (see above); answers how many days were counted. */
export async function refreshAdminStats(now = new Date()): Promise<{ daysCounted: number }> {
  // The ledger's lists of days take in what arrived in the journal since their last pass (ledger.days.ts).
  await syncLedgerDays();
  const { days, yesterday } = keptDays(now);
  const kept = new Map((await adminStatsReads.many<AdminStatsDoc>(ours({ _id: anyOf(days.map(dayKey)) }))).map((doc) => [doc._id, doc] as const));
  let daysCounted = 0;
  for (const day of days) {
    if (day < yesterday && kept.has(dayKey(day))) continue;
    const doc = { _id: dayKey(day), ...(await countDay(day)), countedAt: now };
    await write(doc);
    kept.set(doc._id, doc);
    daysCounted += 1;
  }
  for (const month of new Set(days.map(monthKey))) {
    const ofMonth = days.filter((day) => monthKey(day) === month).map((day) => kept.get(dayKey(day))!);
    await write({ _id: month, ...sum(ofMonth), countedAt: now });
  }
  return { daysCounted };
}

const FIGURES = Object.keys(EMPTY_FIGURES) as (keyof AdminFigures)[];

/**
 * Each kept day of the dashboard (and its months) recounted with its ledger entries read from the whole ledger by `at`
 * instead of the lists of days: `check` compares, `rebuild` writes them all. The days are those the job keeps (since
 * the start of yesterday's month), a few dozen.
 */
async function recountAdminStats(writeAll: boolean, now = new Date()): Promise<KeptStateReport> {
  const { days } = keptDays(now);
  const kept = new Map((await adminStatsReads.many<AdminStatsDoc>(ours({ _id: anyOf(days.map(dayKey)) }))).map((doc) => [doc._id, doc] as const));
  const differences: string[] = [];
  // The kept days' entries, members and pieces in one read each of the whole collection, by day.
  const end = new Date(days[days.length - 1]!.getTime() + DAY_MS);
  const [entries, members, pieces] = await Promise.all([
    entriesBetween(days[0]!, end),
    userReads.many<{ _id: Types.ObjectId }>(madeBetween(days[0]!, end), { projection: { _id: 1 } }),
    contentReads.many<{ _id: Types.ObjectId }>(madeBetween(days[0]!, end), { projection: { _id: 1 } }),
  ]);
  const byDay = new Map<string, LedgerEntryDoc[]>();
  for (const entry of entries) {
    const day = utcDayOf(new Date(entry.at));
    const ofDay = byDay.get(day);
    if (ofDay) ofDay.push(entry);
    else byDay.set(day, [entry]);
  }
  const read: Recounted = { entries: byDay, members: madePerDay(members), pieces: madePerDay(pieces) };
  const recounted = new Map<string, AdminFigures>();
  for (const day of days) {
    const figures = await countDay(day, read);
    recounted.set(dayKey(day), figures);
    const doc = kept.get(dayKey(day));
    const differing = FIGURES.filter((key) => (doc?.[key] ?? 0) !== figures[key]);
    if (differing.length)
      noteDifference(differences, `${dayKey(day)}: ${differing.map((key) => `${key} kept ${doc?.[key] ?? 'none'}, recounted ${figures[key]}`).join('; ')}`);
  }
  if (writeAll) {
    await AdminStatsModel.bulkWrite(
      days.map((day) => ({
        replaceOne: { filter: { _id: dayKey(day) }, replacement: { _id: dayKey(day), ...recounted.get(dayKey(day))!, countedAt: now }, upsert: true },
      })),
    );
    for (const month of new Set(days.map(monthKey))) {
      await write({ _id: month, ...sum(days.filter((day) => monthKey(day) === month).map((day) => recounted.get(dayKey(day))!)), countedAt: now });
    }
  }
  return { checked: days.length, differences };
}

export const adminStatsState = comparedState(
  'admin-stats',
  "The admin dashboard's figures of each day since the start of yesterday's month (admin_stats), recounted from the members, pieces and whole ledger.",
  recountAdminStats,
);
