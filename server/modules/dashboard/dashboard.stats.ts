/**
 * The admin-stats job: counts each UTC day's figures from the facts inserted that day and sums each month from its
 * days. Every document is counted whole and written over the last one (never added to), so a run repeated, or run
 * again after a crash, writes the same figures. A run recounts today and yesterday (an entry written just before
 * midnight may have arrived after the last count), and any day since the start of yesterday's month that has no
 * document yet (the first run, or days the job did not run); a closed day once counted is kept.
 */
import { Types } from 'mongoose';
import { anyOf, ours } from '../../lib/query';
import { creditedBy, entriesBetween, type LedgerEntryDoc } from '../ledger';
import { contentReads } from '../contents';
import { userReads } from '../users';
import { AdminStatsModel, adminStatsReads, type AdminFigures, type AdminStatsDoc } from './dashboard.model';
import { startOfUtcDay, utcDayOf } from '../../lib/calendar';

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
const startOfUtcMonth = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
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

/** One day's figures, counted from what was inserted that day. */
async function countDay(day: Date): Promise<AdminFigures> {
  const end = new Date(day.getTime() + DAY_MS);
  const [entries, members, pieces] = await Promise.all([
    entriesBetween(day, end),
    userReads.many(madeBetween(day, end), { projection: { _id: 1 } }),
    contentReads.many(madeBetween(day, end), { projection: { _id: 1 } }),
  ]);
  return { members: members.length, pieces: pieces.length, ...figuresOfEntries(entries) };
}

const sum = (all: AdminFigures[]): AdminFigures =>
  all.reduce(
    (total, one) => Object.fromEntries(Object.entries(total).map(([key, value]) => [key, value + one[key as keyof AdminFigures]])) as unknown as AdminFigures,
    { ...EMPTY_FIGURES },
  );

const write = (doc: AdminStatsDoc) => AdminStatsModel.replaceOne({ _id: doc._id }, doc, { upsert: true });

/** Counts the days and months the dashboard shows (see above); answers how many days were counted. */
export async function refreshAdminStats(now = new Date()): Promise<{ daysCounted: number }> {
  const today = startOfUtcDay(now);
  const yesterday = new Date(today.getTime() - DAY_MS);
  const first = startOfUtcMonth(yesterday);
  const days: Date[] = [];
  for (let day = first; day <= today; day = new Date(day.getTime() + DAY_MS)) days.push(day);
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
