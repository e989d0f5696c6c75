/**
 * The product-events job: counts each UTC day's events from the facts received that day into one document per day
 * and event (`{yyyy-mm-dd}:{name}`), each written whole over the last count, never added to. So a run repeated, run
 * twice at once, or run after a crash writes the same counts, and a count gone wrong is put right. A run counts
 * today and yesterday again (an event received just before midnight may have been stored after the last count),
 * and any day of the week the dashboard shows that was never counted (the first run, or days the job did not run);
 * an older day once counted is kept. It reads only those days' facts: a range of ids, which start with the second
 * each event arrived.
 */
import { Types } from 'mongoose';
import { retryLostUpsert } from '../../lib/duplicate-key';
import { ours } from '../../lib/query';
import type { Schemas } from '../../lib/openapi-types';
import { ProductEventCountModel, ProductEventModel, productEventCountReads, type ProductEventCountDoc } from './events.model';
import { startOfUtcDay, utcDayOf } from '../../lib/calendar';
import { purgeEventListsBefore } from './events.lists';

type EventName = Schemas['ProductEventName'];
type EventCounts = Schemas['ProductEventCounts'];

/** Every event the app may send, in the order the dashboard lists them. */
export const EVENT_NAMES: readonly EventName[] = ['login', 'signup', 'forgot_password', 'reset_password', 'post_content', 'play', 'knack', 'follow', 'comment'];

const DAY_MS = 86_400_000;
/** The days the dashboard shows, today the last. */
export const DAYS_SHOWN = 7;
/** How long a fact is kept; its day's counts stay after it is gone. */
export const FACTS_KEPT_DAYS = 90;

const dayOf = utcDayOf;
const countKey = (day: string, name: EventName) => `${day}:${name}`;
/** Ids made from the second `at` on: the ObjectIds of facts received from then. */
const idFrom = (at: Date) => Types.ObjectId.createFromTime(Math.floor(at.getTime() / 1000));

/** The days the dashboard shows, the oldest first. */
function shownDays(now: Date): Date[] {
  const today = startOfUtcDay(now);
  return Array.from({ length: DAYS_SHOWN }, (_, i) => new Date(today.getTime() - (DAYS_SHOWN - 1 - i) * DAY_MS));
}

/** One day's count of each event, from the facts received that day. */
async function countDay(day: Date): Promise<Map<string, number>> {
  const received = ours({ _id: { $gte: idFrom(day), $lt: idFrom(new Date(day.getTime() + DAY_MS)) } });
  const facts = await ProductEventModel.find(received, { name: 1 }).lean<{ name: string }[]>();
  const counts = new Map<string, number>();
  for (const { name } of facts) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** Two runs creating the same day at once: the later count replaces the other's. */
async function write(doc: ProductEventCountDoc): Promise<void> {
  await retryLostUpsert(() => ProductEventCountModel.replaceOne({ _id: doc._id }, doc, { upsert: true }));
}

/** Counts the days described above; answers how many days were counted. */
export async function countProductEvents(now = new Date()): Promise<{ daysCounted: number }> {
  const days = shownDays(now);
  const yesterday = days[DAYS_SHOWN - 2]!;
  // A counted day has every event's document; the first event's says whether it was counted.
  const counted = await Promise.all(days.map((day) => productEventCountReads.byId(countKey(dayOf(day), EVENT_NAMES[0]!), { _id: 1 })));
  let daysCounted = 0;
  for (const [i, day] of days.entries()) {
    if (day < yesterday && counted[i]) continue;
    const counts = await countDay(day);
    const key = dayOf(day);
    for (const name of EVENT_NAMES) await write({ _id: countKey(key, name), day: key, name, count: counts.get(name) ?? 0, countedAt: now });
    daysCounted += 1;
  }
  return { daysCounted };
}

/**
 * Deletes the facts older than FACTS_KEPT_DAYS (their days stay counted), and the members' lists of the months before
 * (each names only facts older than that); answers how many facts went.
 */
export async function purgeOldProductEvents(now = new Date()): Promise<number> {
  const cutoff = new Date(startOfUtcDay(now).getTime() - FACTS_KEPT_DAYS * DAY_MS);
  const { deletedCount } = await ProductEventModel.deleteMany(ours({ _id: { $lt: idFrom(cutoff) } }));
  await purgeEventListsBefore(cutoff);
  return deletedCount;
}

/** The dashboard's week: each day's count of each event as the job last counted it (0 before), by `_id`. */
export async function productEventWeek(now = new Date()): Promise<Schemas['ProductEventDay'][]> {
  return Promise.all(
    shownDays(now).map(async (date) => {
      const day = dayOf(date);
      const docs = await Promise.all(
        EVENT_NAMES.map((name) => productEventCountReads.byId<Pick<ProductEventCountDoc, 'count'>>(countKey(day, name), { count: 1 })),
      );
      const counts = Object.fromEntries(EVENT_NAMES.map((name, i) => [name, docs[i]?.count ?? 0])) as EventCounts;
      return { day, counts };
    }),
  );
}
