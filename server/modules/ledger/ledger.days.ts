/**
 * The ledger's days: for each UTC day (of the entries' `at`), the ids of its entries, kept in `ledger_days` by a
 * journal consumer (ledger.journal.ts), so that the jobs that count a day (the daily Merkle roots, the earnings
 * rollups, the admin figures) read that day's entries by `_id` instead of scanning the whole ledger by `at`: their
 * work grows with the days they count, never with the ledger's history.
 *
 * Why ids and not copies of the entries: the daily roots and the proofs must be made of the entries as stored (a
 * changed entry must no longer lead to its anchored root), and a copy would double the ledger.
 *
 * Documents (`_id`):
 * - `day:{day}` the day's head: `chunks` (how many chunk documents hold its ids), `count`, and `lastSeq`, the highest
 *   journal number listed (the consumer's idempotence: an entry handed again, at least once, has `seq <= lastSeq`);
 * - `day:{day}:{i}` its i-th chunk (i = 1..chunks): up to CHUNK_SIZE `{ id, n }` (the entry's id and `seq`), in the
 *   order the journal handed them;
 * - `first`: the earliest day listed (where the daily jobs start on an empty database).
 *
 * A chunk is written before its head, so a crash between the two leaves items with `n > lastSeq` in a chunk: the next
 * pass drops them before it appends the same entries again. One consumer writes (under the `ledger-days` lease), so
 * reading a head and writing it back is safe.
 */
import { Schema, model, type mongo } from 'mongoose';
import { addDays, utcDayOf } from '../../lib/calendar';
import { noteDifference, type KeptState, type KeptStateReport } from '../../lib/kept-state';
import { withLock } from '../../lib/mutex';
import { readById, readEachById } from '../../lib/query';
import {
  checkpointOf,
  JOURNAL_GRACE_MS,
  journalEnd,
  JournalSlotModel,
  journalSlotId,
  readJournal,
  saveCheckpoint,
  type JournalPass,
  type JournalSlotDoc,
} from './ledger.journal';
import { LedgerEntryModel, type LedgerEntryDoc } from './ledger.model';

/** The journal consumer's name (its checkpoint) and its lease. */
export const LEDGER_DAYS = 'ledger-days';
/** At most this many ids per chunk document (a busy day of 100,000 entries is 100 small documents). */
export const CHUNK_SIZE = 1_000;
/** Entries read by `_id` at once when a day's entries are read. */
const READ_PARALLEL = 200;
const LEASE_MS = 10 * 60_000;

interface DayItem {
  id: string;
  n: number;
}
interface DayHeadDoc {
  _id: string;
  day: string;
  chunks: number;
  count: number;
  lastSeq: number;
}
interface DayChunkDoc {
  _id: string;
  items: DayItem[];
}
interface FirstDayDoc {
  _id: 'first';
  day: string;
}

const ledgerDaySchema = new Schema(
  {
    _id: { type: String, required: true },
    day: String,
    chunks: Number,
    count: Number,
    lastSeq: Number,
    items: { type: [{ _id: false, id: String, n: Number }], default: undefined },
  },
  { versionKey: false },
);
export const LedgerDayModel = model('LedgerDay', ledgerDaySchema, 'ledger_days');

const headId = (day: string) => `day:${day}`;
const chunkId = (day: string, i: number) => `day:${day}:${i}`;
const FIRST_ID = 'first';

const replaceWhole = <T extends { _id: string }>(doc: T) => ({ replaceOne: { filter: { _id: doc._id as never }, replacement: doc as never, upsert: true } });

/** Lists the entries of one consumer batch under their days (see the top of this file for the crash rules). */
async function listBatch(entries: LedgerEntryDoc[]): Promise<void> {
  const byDay = new Map<string, DayItem[]>();
  for (const entry of entries) {
    const day = utcDayOf(new Date(entry.at));
    const items = byDay.get(day) ?? [];
    items.push({ id: entry._id, n: entry.seq! });
    byDay.set(day, items);
  }
  const writes: mongo.AnyBulkWriteOperation[] = [];
  const heads: DayHeadDoc[] = [];
  for (const [day, items] of byDay) {
    const head = (await readById<DayHeadDoc>(LedgerDayModel, headId(day))) ?? { _id: headId(day), day, chunks: 0, count: 0, lastSeq: 0 };
    const fresh = items.filter((item) => item.n > head.lastSeq);
    if (!fresh.length) continue;
    let chunk = head.chunks;
    let current: DayItem[] = [];
    if (chunk > 0) {
      const last = await readById<DayChunkDoc>(LedgerDayModel, chunkId(day, chunk));
      current = (last?.items ?? []).filter((item) => item.n <= head.lastSeq);
      if (current.length >= CHUNK_SIZE) current = [];
    }
    if (chunk === 0 || current.length === 0) chunk += 1;
    for (const item of fresh) {
      if (current.length >= CHUNK_SIZE) {
        writes.push(replaceWhole({ _id: chunkId(day, chunk), items: current }));
        chunk += 1;
        current = [];
      }
      current.push(item);
    }
    writes.push(replaceWhole({ _id: chunkId(day, chunk), items: current }));
    heads.push({ ...head, chunks: chunk, count: head.count + fresh.length, lastSeq: fresh[fresh.length - 1]!.n });
  }
  if (!heads.length) return;
  await LedgerDayModel.collection.bulkWrite(writes, { ordered: true });
  await LedgerDayModel.collection.bulkWrite(heads.map(replaceWhole), { ordered: true });
  const earliest = heads.map((head) => head.day).sort()[0]!;
  const first = await readById<FirstDayDoc>(LedgerDayModel, FIRST_ID);
  if (!first || earliest < first.day) await LedgerDayModel.collection.replaceOne({ _id: FIRST_ID as never }, { day: earliest }, { upsert: true });
}

/**
 * Lists what arrived in the journal since the last pass, and answers the pass. One pass at a time: a caller that
 * finds another pass under way waits for it (then reads on from where it ended), so that when this answers, every
 * slot that was settled when it was called is listed.
 */
export async function syncLedgerDays(options: { graceMs?: number } = {}): Promise<JournalPass> {
  return withLock(`journal:${LEDGER_DAYS}`, () => readJournal(LEDGER_DAYS, (entries) => listBatch(entries), { batchSize: 500, ...options }), {
    ttlMs: LEASE_MS,
    waitMs: LEASE_MS,
    busyMessage: 'The ledger days are being listed by another run.',
  });
}

/** How far the days are listed: every journal slot up to `throughSeq` is. */
export const ledgerDaysThrough = () => checkpointOf(LEDGER_DAYS);

/**
 * Whether `day`'s list is complete as of `now`: the day ended at least the journal's grace period ago (a post stamped
 * just before midnight has landed, or its slot is completed), and every slot written until then is listed: the
 * first slot not listed yet, if any, was written after it. Answers the listing's position to read the day at.
 */
export async function isDaySettled(day: string, now: Date): Promise<{ settled: boolean; throughSeq: number }> {
  const throughSeq = await ledgerDaysThrough();
  const settledAt = addDays(new Date(`${day}T00:00:00.000Z`), 1).getTime() + JOURNAL_GRACE_MS;
  if (now.getTime() < settledAt) return { settled: false, throughSeq };
  const next = await readById<JournalSlotDoc>(JournalSlotModel, journalSlotId(throughSeq + 1));
  const after = !next || (new Date(next.writtenAt).getTime() >= settledAt && utcDayOf(new Date(next.entry.at)) > day);
  return { settled: after, throughSeq };
}

/** The ids of `day`'s entries listed so far (those at journal numbers up to `throughSeq` when given), in listed order. */
export async function entryIdsOfDay(day: string, throughSeq = Infinity): Promise<string[]> {
  const head = await readById<DayHeadDoc>(LedgerDayModel, headId(day));
  if (!head) return [];
  const chunks = await Promise.all(Array.from({ length: head.chunks }, (_, i) => readById<DayChunkDoc>(LedgerDayModel, chunkId(day, i + 1))));
  return chunks.flatMap((chunk) => chunk?.items ?? []).flatMap((item) => (item.n <= Math.min(head.lastSeq, throughSeq) ? [item.id] : []));
}

/** `day`'s entries as stored (every field), read by `_id` (see entryIdsOfDay). */
export async function entriesOfDay(day: string, throughSeq = Infinity): Promise<LedgerEntryDoc[]> {
  return readEachById<LedgerEntryDoc>(LedgerEntryModel, await entryIdsOfDay(day, throughSeq), READ_PARALLEL);
}

/** The entries of the days from `from` to `to` (UTC day starts, both included), day by day. */
export async function entriesOfDays(from: Date, to: Date): Promise<LedgerEntryDoc[]> {
  const entries: LedgerEntryDoc[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) entries.push(...(await entriesOfDay(utcDayOf(day))));
  return entries;
}

/** The earliest day any entry is listed under, or null before the first entry. */
export const firstListedDay = async () => (await readById<FirstDayDoc>(LedgerDayModel, FIRST_ID))?.day ?? null;

/** Every day's list, as `rebuild` would write it: read from the whole ledger (the check and the rebuild only). */
async function recountDays(throughSeq: number, onChunk?: (day: string, i: number, items: DayItem[]) => Promise<void>) {
  const days = new Map<string, { chunks: number; count: number; lastSeq: number; open: DayItem[]; digest: number }>();
  let unjournaled = 0;
  const cursor = LedgerEntryModel.find({}, { _id: 1, at: 1, seq: 1 }).lean<Pick<LedgerEntryDoc, '_id' | 'at' | 'seq'>>().cursor({ batchSize: 1_000 });
  for await (const entry of cursor as AsyncIterable<Pick<LedgerEntryDoc, '_id' | 'at' | 'seq'>>) {
    if (entry.seq === undefined) {
      unjournaled += 1;
      continue;
    }
    if (entry.seq > throughSeq) continue;
    const day = utcDayOf(new Date(entry.at));
    let state = days.get(day);
    if (!state) days.set(day, (state = { chunks: 0, count: 0, lastSeq: 0, open: [], digest: 0 }));
    state.open.push({ id: entry._id, n: entry.seq });
    state.count += 1;
    state.lastSeq = Math.max(state.lastSeq, entry.seq);
    state.digest = (state.digest + digestOf(entry._id)) % DIGEST_MOD;
    if (state.open.length === CHUNK_SIZE) {
      state.chunks += 1;
      await onChunk?.(day, state.chunks, state.open);
      state.open = [];
    }
  }
  for (const [day, state] of days) {
    if (state.open.length) {
      state.chunks += 1;
      await onChunk?.(day, state.chunks, state.open);
      state.open = [];
    }
  }
  return { days, unjournaled };
}

/** An order-free digest of a set of ids: the sum of each id's hash (a day's list compared without holding it). */
const DIGEST_MOD = 2 ** 48;
function digestOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (Math.imul(hash, 31) + id.charCodeAt(i)) >>> 0;
  return (hash * 65_537 + id.length) % DIGEST_MOD;
}

/** Compares every listed day with a recount from the ledger (up to the listing's checkpoint), writing nothing. */
export async function checkLedgerDays(): Promise<KeptStateReport> {
  const throughSeq = await ledgerDaysThrough();
  const { days, unjournaled } = await recountDays(throughSeq);
  const differences: string[] = [];
  if (unjournaled) noteDifference(differences, `${unjournaled} ledger entries have no journal number (rebuild the journal first)`);
  const firstKept = await firstListedDay();
  const recountedFirst = [...days.keys()].sort()[0] ?? null;
  if (firstKept !== recountedFirst) noteDifference(differences, `first day: kept ${firstKept ?? 'none'}, recounted ${recountedFirst ?? 'none'}`);
  const keptDays = new Set<string>();
  // A scan of ledger_days' heads (the check only).
  const heads = LedgerDayModel.collection.find({ chunks: { $exists: true } }, { projection: { _id: 1 } });
  for await (const head of heads) keptDays.add(String(head._id).slice('day:'.length));
  let checked = 0;
  for (const day of new Set([...days.keys(), ...keptDays])) {
    checked += 1;
    const ids = await entryIdsOfDay(day, throughSeq);
    const digest = ids.reduce((sum, id) => (sum + digestOf(id)) % DIGEST_MOD, 0);
    const expected = days.get(day) ?? { count: 0, digest: 0 };
    if (new Set(ids).size !== ids.length) noteDifference(differences, `${day}: an entry is listed twice`);
    if (ids.length !== expected.count || digest !== expected.digest)
      noteDifference(differences, `${day}: ${ids.length} entries listed, ${expected.count} in the ledger`);
  }
  return { checked, differences };
}

/** Lists every day again from the whole ledger, in bulk, and moves the consumer's checkpoint to the journal's end (a quiet database). */
export async function rebuildLedgerDays(): Promise<KeptStateReport> {
  const throughSeq = await journalEnd();
  await LedgerDayModel.collection.deleteMany({});
  // Chunks are written ten at a time (10,000 ids a round trip) as the recount fills them.
  let pending: mongo.AnyBulkWriteOperation[] = [];
  const { days, unjournaled } = await recountDays(throughSeq, async (day, i, items) => {
    pending.push(replaceWhole({ _id: chunkId(day, i), items }));
    if (pending.length < 10) return;
    await LedgerDayModel.collection.bulkWrite(pending, { ordered: false });
    pending = [];
  });
  const heads = [...days].map(([day, state]) => replaceWhole({ _id: headId(day), day, chunks: state.chunks, count: state.count, lastSeq: state.lastSeq }));
  const first = [...days.keys()].sort()[0];
  for (let i = 0; i < heads.length; i += 1_000) await LedgerDayModel.collection.bulkWrite(heads.slice(i, i + 1_000), { ordered: false });
  if (pending.length) await LedgerDayModel.collection.bulkWrite(pending, { ordered: false });
  if (first) await LedgerDayModel.collection.replaceOne({ _id: FIRST_ID as never }, { day: first }, { upsert: true });
  await saveCheckpoint(LEDGER_DAYS, throughSeq);
  const count = [...days.values()].reduce((sum, state) => sum + state.count, 0);
  return {
    checked: count,
    differences: unjournaled ? [`${unjournaled} ledger entries have no journal number and are not listed (rebuild the journal first)`] : [],
  };
}

/** The days' lists as a kept state (lib/kept-state.ts): `npm run rebuild -- ledger-days`. */
export const ledgerDaysState: KeptState = {
  name: LEDGER_DAYS,
  describe: "Each UTC day's ledger entry ids (ledger_days), listed from the journal, rebuilt from the ledger's entries.",
  check: checkLedgerDays,
  rebuild: rebuildLedgerDays,
};
