/**
 * The `earnings-rollups` job's counting (see analytics.model.ts): each run counts again, from the ledger (and, for the
 * members' days by site, from the embed plays), every day not yet closed (always yesterday and today: a knack is stamped when its request began, so one may land just after
 * midnight), writes each day's rollups whole, and closes the days before yesterday for good. A crash between two
 * writes leaves a day half-written only until the next run counts it again.
 *
 * A day's entries are read by `_id` from the ledger's list of the day (ledger.days.ts, a journal consumer brought up to
 * date at the start of each run), so a run reads the open days' entries, never the whole ledger. Counting every day
 * again (the repair, once a weekly part of the job) is the kept state `earnings-rollups` (`npm run rebuild`), which
 * reads every day a week at a time and writes in bulk.
 */
import { addDays, startOfUtcDay, utcDayOf } from '../../lib/calendar';
import { duplicateKeyPlaces } from '../../lib/duplicate-key';
import { readById } from '../../lib/query';
import { contentReads, type ContentDoc } from '../contents';
import { comparedState, type KeptStateReport, noteDifference } from '../../lib/kept-state';
import { creditedBy, entriesInOrderFrom, entriesOfDays, firstListedDay, syncLedgerDays, type LedgerEntryDoc } from '../ledger';
import { embedPlaysBetween, firstEmbedPlayAt, type EmbedPlayDoc } from '../share';
import { tagsService } from '../tags';
import {
  dayIndexId,
  EarningsDayModel,
  hostsDayId,
  memberDayId,
  NO_TAG,
  pieceDayId,
  STATE_ID,
  tagDayId,
  type DayIndex,
  type DayRollup,
  type HostDayRollup,
  type RollupState,
} from './analytics.model';

type KnackEntry = Pick<LedgerEntryDoc, '_id' | 'at' | 'contentId' | 'legs' | 'tagId' | 'embedHost'>;
type PlayFact = Pick<EmbedPlayDoc, 'contentId' | 'ownerId' | 'host' | 'at'>;
/** What one run writes for a day: the knack rollups and the members' days by site. */
type RollupDoc = DayRollup | HostDayRollup;

const MEMBER_ACCOUNT = /^user:([0-9a-f]{24})$/;

/** A day's rollups, by `_id`, from its knack entries and the tag that priced each (pure: the job's arithmetic). */
export function rollupsOf(entries: KnackEntry[], tagOf: (entry: KnackEntry) => string, countedAt: Date): Map<string, DayRollup> {
  const docs = new Map<string, DayRollup>();
  const piecesOfTag = new Map<string, Set<string>>();
  const doc = (id: string, day: string) => {
    let found = docs.get(id);
    if (!found) docs.set(id, (found = { _id: id, day, knacks: 0, valueMicros: 0, countedAt }));
    return found;
  };
  for (const entry of entries) {
    const day = utcDayOf(entry.at);
    const tag = tagOf(entry);
    const value = creditedBy(entry);
    const contentId = String(entry.contentId);
    const piece = doc(pieceDayId(contentId, day), day);
    piece.knacks += 1;
    piece.valueMicros += value;
    if (tag !== NO_TAG) {
      const tagDay = doc(tagDayId(tag, day), day);
      tagDay.knacks += 1;
      tagDay.valueMicros += value;
      const pieces = piecesOfTag.get(tagDay._id) ?? new Set<string>();
      pieces.add(contentId);
      piecesOfTag.set(tagDay._id, pieces);
      tagDay.pieces = pieces.size;
    }
    for (const leg of entry.legs) {
      const member = MEMBER_ACCOUNT.exec(leg.account)?.[1];
      if (!member || leg.amountMicros <= 0) continue;
      const memberDay = doc(memberDayId(member, day), day);
      memberDay.knacks += 1;
      memberDay.valueMicros += leg.amountMicros;
      memberDay.byTag ??= [];
      let share = memberDay.byTag.find((one) => one.tagId === tag);
      if (!share) memberDay.byTag.push((share = { tagId: tag, knacks: 0, earnedMicros: 0 }));
      share.knacks += 1;
      share.earnedMicros += leg.amountMicros;
    }
  }
  return docs;
}

/**
 * Each member's days by site (pure: the job's arithmetic): the embed plays of their pieces (`ownerOf` the play's piece),
 * and the knacks that credited them with what each credited, under the site each was made on (null: Knack itself).
 */
export function hostRollupsOf(
  entries: KnackEntry[],
  plays: PlayFact[],
  ownerOf: (play: PlayFact) => string | null,
  countedAt: Date,
): Map<string, HostDayRollup> {
  const docs = new Map<string, HostDayRollup>();
  const share = (userId: string, day: string, host: string | null) => {
    const id = hostsDayId(userId, day);
    let doc = docs.get(id);
    if (!doc) docs.set(id, (doc = { _id: id, day, hosts: [], countedAt }));
    let row = doc.hosts.find((one) => one.host === host);
    if (!row) doc.hosts.push((row = { host, plays: 0, knacks: 0, earnedMicros: 0 }));
    return row;
  };
  for (const play of plays) {
    const owner = ownerOf(play);
    if (owner) share(owner, utcDayOf(play.at), play.host ?? null).plays += 1;
  }
  for (const entry of entries) {
    for (const leg of entry.legs) {
      const member = MEMBER_ACCOUNT.exec(leg.account)?.[1];
      if (!member || leg.amountMicros <= 0) continue;
      const row = share(member, utcDayOf(entry.at), entry.embedHost ?? null);
      row.knacks += 1;
      row.earnedMicros += leg.amountMicros;
    }
  }
  return docs;
}

/** The owner of each play's piece: kept on the play, or for a play counted before plays kept it, read from the piece. */
async function ownerResolver(plays: PlayFact[]): Promise<(play: PlayFact) => string | null> {
  const unnamed = [...new Set(plays.filter((play) => !play.ownerId).map((play) => String(play.contentId)))];
  const ownerOfPiece = new Map<string, string | null>();
  for (const contentId of unnamed) {
    const piece = await contentReads.byId<Pick<ContentDoc, 'ownerId'>>(contentId, { ownerId: 1 });
    ownerOfPiece.set(contentId, piece ? String(piece.ownerId) : null);
  }
  return (play) => (play.ownerId ? String(play.ownerId) : (ownerOfPiece.get(String(play.contentId)) ?? null));
}

/**
 * Which tag priced each entry: the one it names, or for an entry made before knacks named their tag, the tag that
 * prices its piece now (NO_TAG when the piece or its tag is gone).
 */
async function tagResolver(entries: KnackEntry[]): Promise<(entry: KnackEntry) => string> {
  const unnamed = [...new Set(entries.filter((entry) => entry.tagId === undefined).map((entry) => String(entry.contentId)))];
  const tagOfPiece = new Map<string, string>();
  for (const contentId of unnamed) {
    const piece = await contentReads.byId<Pick<ContentDoc, 'subTag' | 'tags'>>(contentId, { subTag: 1, tags: 1 });
    const tag = piece ? await tagsService.pricingTagOf(piece) : null;
    tagOfPiece.set(contentId, tag ? String(tag._id) : NO_TAG);
  }
  return (entry) => (entry.tagId === undefined ? tagOfPiece.get(String(entry.contentId))! : entry.tagId ? String(entry.tagId) : NO_TAG);
}

/** Each tag's knacks in `docs`, by tag id. */
const tagKnacks = (docs: RollupDoc[]) => {
  const totals = new Map<string, number>();
  for (const doc of docs) {
    if (!doc._id.startsWith('tag:') || !('knacks' in doc)) continue;
    const tagId = doc._id.split(':')[1]!;
    totals.set(tagId, (totals.get(tagId) ?? 0) + doc.knacks);
  }
  return totals;
};

const writeWhole = <T extends { _id: string }>(doc: T) => EarningsDayModel.replaceOne({ _id: doc._id }, doc, { upsert: true });

/**
 * Writes one day's rollups whole and removes those of the day that the count no longer makes. The day's index also
 * holds each tag's knacks of the day, so that pricing every tag reads one document a day, not one per tag and day.
 */
async function writeDay(day: string, docs: RollupDoc[]): Promise<void> {
  const ids = docs.map((doc) => doc._id);
  const before = await readById<DayIndex>(EarningsDayModel, dayIndexId(day));
  const kept = new Set(ids);
  const gone = before?.ids.filter((id) => !kept.has(id)) ?? [];
  const index: DayIndex = { _id: dayIndexId(day), day: null, ids, tagKnacks: Object.fromEntries(tagKnacks(docs)) };
  // A day never written (a rebuild's, or a new day's): its rollups are inserted, a fraction of the cost of a replace
  // on FerretDB; any a crash left behind before the index (their `_id` taken) are replaced instead.
  let replacing = docs;
  if (!before && docs.length) {
    try {
      await EarningsDayModel.collection.insertMany(docs as never[], { ordered: false });
      replacing = [];
    } catch (err) {
      const places = duplicateKeyPlaces(err);
      if (!places) throw err;
      replacing = places.map((place) => docs[place]!);
    }
  }
  // The index last: a crash before it leaves the day to be counted again by the next run, as a whole.
  await EarningsDayModel.collection.bulkWrite(
    [
      ...replacing.map((doc) => ({ replaceOne: { filter: { _id: doc._id as never }, replacement: doc as never, upsert: true } })),
      ...gone.map((id) => ({ deleteOne: { filter: { _id: id as never } } })),
      { replaceOne: { filter: { _id: index._id as never }, replacement: index, upsert: true } },
    ],
    { ordered: true },
  );
}

/** The rollups of the days from `from` to `to` (UTC day starts, both included), by day, from their entries and plays. */
async function countDays(from: Date, to: Date, now: Date, readEntries = entriesOfDays): Promise<Map<string, RollupDoc[]>> {
  const [entries, plays] = await Promise.all([
    readEntries(from, to).then((all) => all.filter((entry) => entry.kind === 'knack')),
    embedPlaysBetween(from, addDays(to, 1)),
  ]);
  const docs: RollupDoc[] = [...rollupsOf(entries, await tagResolver(entries), now).values()];
  docs.push(...hostRollupsOf(entries, plays, await ownerResolver(plays), now).values());
  const byDay = new Map<string, RollupDoc[]>();
  for (let day = from; day <= to; day = addDays(day, 1)) byDay.set(utcDayOf(day), []);
  for (const doc of docs) byDay.get(doc.day)?.push(doc);
  return byDay;
}

/** The rollups' state: the last closed day and each tag's knacks through it (null before the first run). */
export const rollupState = () => readById<RollupState>(EarningsDayModel, STATE_ID);

export interface RollupRun {
  /** The days counted: yesterday and today, and any day not yet closed before them. */
  daysCounted: number;
  /** The rollups written. */
  rollups: number;
  /** Each tag's knacks of all time, as the tags now show them. */
  tagTotals: Map<string, number>;
}

/** One run of the job (see above). Answers what it counted. */
export async function refreshRollups(now = new Date()): Promise<RollupRun> {
  await syncLedgerDays();
  const today = startOfUtcDay(now);
  const yesterday = addDays(today, -1);
  const state = await rollupState();
  const firstOpen = state ? addDays(new Date(`${state.closedThrough}T00:00:00.000Z`), 1) : startOfUtcDay((await firstFactAt()) ?? yesterday);
  const from = firstOpen < yesterday ? firstOpen : yesterday;
  const byDay = await countDays(from, today, now);
  for (const [day, ofDay] of byDay) await writeDay(day, ofDay);

  // The days before yesterday are closed: their tag knacks join the totals, and they are never counted again.
  const totals = new Map(Object.entries(state?.tagTotals ?? {}));
  const closing = [...byDay].filter(([day]) => day < utcDayOf(yesterday));
  if (closing.length) {
    for (const [tagId, knacks] of tagKnacks(closing.flatMap(([, ofDay]) => ofDay))) totals.set(tagId, (totals.get(tagId) ?? 0) + knacks);
    const closed: RollupState = {
      _id: STATE_ID,
      closedThrough: utcDayOf(addDays(yesterday, -1)),
      tagTotals: Object.fromEntries(totals),
      rebuiltAt: state?.rebuiltAt ?? now,
    };
    await writeWhole(closed);
  }
  const open = [...byDay].filter(([day]) => day >= utcDayOf(yesterday)).flatMap(([, ofDay]) => ofDay);
  const tagTotals = new Map(totals);
  for (const [tagId, knacks] of tagKnacks(open)) tagTotals.set(tagId, (tagTotals.get(tagId) ?? 0) + knacks);
  await tagsService.setKnackTotals(tagTotals);
  return { daysCounted: byDay.size, rollups: [...byDay.values()].reduce((sum, ofDay) => sum + ofDay.length, 0), tagTotals };
}

/** The first fact the rollups count: the first day of the ledger's lists or the first embed play, whichever came first. */
async function firstFactAt(): Promise<Date | null> {
  const firstDay = await firstListedDay();
  const firsts = [firstDay ? new Date(`${firstDay}T00:00:00.000Z`) : null, await firstEmbedPlayAt()].filter((at): at is Date => at !== null);
  return firsts.length ? new Date(Math.min(...firsts.map((at) => at.getTime()))) : null;
}

/** Counts every day again from the first fact: the repair when a count is in doubt (the kept state's rebuild). */
export async function rebuildRollups(now = new Date()): Promise<RollupRun> {
  await EarningsDayModel.deleteOne({ _id: STATE_ID });
  return refreshRollups(now);
}

/**
 * Reads an ordered stream of entries span after span: each call takes the entries before `end` that earlier calls
 * did not (the ends must come in order).
 */
function spansOf(entries: AsyncIterable<LedgerEntryDoc>): (end: Date) => Promise<LedgerEntryDoc[]> {
  const iterator = entries[Symbol.asyncIterator]();
  let waiting: LedgerEntryDoc | undefined;
  let finished = false;
  return async (end) => {
    const taken: LedgerEntryDoc[] = [];
    while (!finished) {
      if (!waiting) {
        const next = await iterator.next();
        if (next.done) {
          finished = true;
          break;
        }
        waiting = next.value;
      }
      if (waiting.at >= end) break;
      taken.push(waiting);
      waiting = undefined;
    }
    return taken;
  };
}

/** The days counted together by the kept state's check and rebuild: a week of entries in memory at a time. */
const RECOUNT_WINDOW_DAYS = 7;

/**
 * A rollup as compared: without when it was counted, its keys and its rows (by tag, by site) in one order, since the
 * order they were met in depends on the order the entries were read.
 */
function comparable(doc: RollupDoc | null | undefined): string {
  if (!doc) return 'none';
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    if (value && typeof value === 'object' && !(value instanceof Date)) {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([key, field]) => key !== 'countedAt' && field !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([key, field]) => [key, canonical(field)]),
      );
    }
    return value;
  };
  return JSON.stringify(canonical(doc));
}

/**
 * Every day from the first fact to today recounted from the whole ledger by `at` (not the lists of days), a week at a
 * time: `check` compares each day's rollups and index with the kept ones; `rebuild` writes them, then the state (the
 * days before yesterday closed, their tag knacks in the totals) and the tags' totals.
 */
async function recountRollups(writeAll: boolean, now = new Date()): Promise<KeptStateReport> {
  if (writeAll) await syncLedgerDays();
  const today = startOfUtcDay(now);
  const yesterday = utcDayOf(addDays(today, -1));
  const first = startOfUtcDay((await firstFactAt()) ?? today);
  const differences: string[] = [];
  const totals = new Map<string, number>();
  let checked = 0;
  // One pass over the ledger's knacks in order, a window at a time.
  const knacksBefore = spansOf(entriesInOrderFrom(first, ['knack']));
  for (let from = first; from <= today; from = addDays(from, RECOUNT_WINDOW_DAYS)) {
    const last = addDays(from, RECOUNT_WINDOW_DAYS - 1);
    const to = last < today ? last : today;
    const byDay = await countDays(from, to, now, (_start, end) => knacksBefore(addDays(end, 1)));
    for (const [day, docs] of byDay) {
      if (day < yesterday) for (const [tagId, knacks] of tagKnacks(docs)) totals.set(tagId, (totals.get(tagId) ?? 0) + knacks);
      checked += docs.length;
      if (writeAll) {
        await writeDay(day, docs);
        continue;
      }
      const index = await readById<DayIndex>(EarningsDayModel, dayIndexId(day));
      const ids = docs.map((doc) => doc._id).sort();
      if (JSON.stringify([...(index?.ids ?? [])].sort()) !== JSON.stringify(ids))
        noteDifference(differences, `${day}: kept rollups ${index?.ids.length ?? 0}, recounted ${ids.length}`);
      const kept = await rollupsById<RollupDoc>(ids);
      for (const doc of docs) {
        if (comparable(kept.get(doc._id)) !== comparable(doc))
          noteDifference(differences, `${doc._id}: kept ${comparable(kept.get(doc._id))}, recounted ${comparable(doc)}`);
      }
    }
  }
  if (writeAll) {
    const closedThrough = utcDayOf(addDays(today, -2));
    if (first <= addDays(today, -2)) await writeWhole<RollupState>({ _id: STATE_ID, closedThrough, tagTotals: Object.fromEntries(totals), rebuiltAt: now });
    await refreshRollups(now);
  }
  return { checked, differences };
}

export const earningsRollupsState = comparedState(
  'earnings-rollups',
  "The daily earnings rollups per member, piece, tag and site (earnings_days), recounted from the whole ledger's knacks and the embed plays.",
  recountRollups,
);

/** Rollups by `_id`, each one read on the fast path; missing ones (a day without knacks) are left out. */
export async function rollupsById<T extends RollupDoc = DayRollup>(ids: string[]): Promise<Map<string, T>> {
  const found = await Promise.all(ids.map((id) => readById<T>(EarningsDayModel, id)));
  return new Map(found.filter((doc): doc is NonNullable<typeof doc> => doc !== null).map((doc) => [doc._id, doc]));
}

/** Each tag's knacks on each of `days`, summed: one read of each day's index. */
export async function tagKnacksOn(days: string[]): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const index of await Promise.all(days.map((day) => readById<DayIndex>(EarningsDayModel, dayIndexId(day))))) {
    for (const [tagId, knacks] of Object.entries(index?.tagKnacks ?? {})) totals.set(tagId, (totals.get(tagId) ?? 0) + knacks);
  }
  return totals;
}
