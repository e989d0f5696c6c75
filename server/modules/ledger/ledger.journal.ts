/**
 * The ledger's journal: every posted entry, whole, in the order the ledger took them, as one numbered chain
 * (lib/numbered-chain.ts) of slots `j#1`, `j#2`… in `ledger_journal`. Jobs that follow the ledger (balances, rankings)
 * read it from their checkpoint forward instead of rereading the whole ledger, so their work grows with what arrived.
 *
 * How `post` (ledger.ts, the ledger's one writer) writes it, so that a crash at any step loses nothing:
 * 1. an entry whose `_id` already exists is a retry: its original is answered, nothing is written;
 * 2. a slot is appended holding the whole entry, its number `seq`;
 * 3. the entry is inserted carrying `seq`. A duplicate `_id` there means a concurrent twin won: this slot is a dud
 *    (the stored entry's `seq` names another slot) and the caller gets the twin's entry.
 * A slot whose entry is missing is in flight: its writer is between steps 2 and 3, or died there. For
 * JOURNAL_GRACE_MS after the slot was written, readers wait for it; after that, the reader completes the post by
 * inserting the entry from the slot. Both inserts carry the same `_id`, so a late original and a completion cannot
 * both land: whichever is second finds the first, and its slot is a dud.
 *
 * Why one chain and not one per day: a reader moving from one day's chain to the next would have to trust clocks (of
 * many instances, and the tests' frozen ones) to know that no writer is still appending to the day before. One chain
 * has one order; an insert on the next number costs about the same (a writer's known end is remembered per process).
 *
 * The contract of `readJournal`, for a consumer:
 * - at least once: a batch is handed again if the consumer failed (or its process died) before its checkpoint
 *   moved, so its writes must be idempotent: each entry carries `seq`, its position, to key them by;
 * - in order: entries come in slot order, each live entry once per pass, duds skipped;
 * - a slot in flight stops the pass there until its entry lands or its grace period ends (then it is completed), so
 *   a consumer may trail the newest entries by up to JOURNAL_GRACE_MS after a crash;
 * - a consumer runs under its own job lease (one reader per checkpoint at a time).
 */
import { Schema, model } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { inTurn } from '../../lib/in-turn';
import { numberedChains } from '../../lib/numbered-chain';
import { insertWhole, readById } from '../../lib/query';
import { LedgerEntryModel, type LedgerEntryDoc } from './ledger.model';

/** How long a slot whose entry is missing is taken to be a post still under way, before a reader completes it. */
export const JOURNAL_GRACE_MS = 5 * 60_000;

/** The one journal chain's name: slots are `j#{n}`. */
const JOURNAL = 'j';

export interface JournalSlotDoc {
  /** `j#{n}`. */
  _id: string;
  n: number;
  /** The whole entry as post meant to insert it (with `seq` = n). */
  entry: LedgerEntryDoc;
  /** When the slot was written: its grace period runs from here. */
  writtenAt: Date;
}

const journalSlotSchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
    entry: { type: Schema.Types.Mixed, required: true },
    writtenAt: { type: Date, required: true },
  },
  { versionKey: false },
);
export const JournalSlotModel = model<JournalSlotDoc>('LedgerJournalSlot', journalSlotSchema, 'ledger_journal');

/** A consumer's position: the last slot number it handled whole. `_id` is the consumer's name. */
export interface JournalCheckpointDoc {
  _id: string;
  n: number;
  at: Date;
}
const journalCheckpointSchema = new Schema(
  { _id: { type: String, required: true }, n: { type: Number, required: true }, at: { type: Date, required: true } },
  { versionKey: false },
);
export const JournalCheckpointModel = model<JournalCheckpointDoc>('LedgerJournalCheckpoint', journalCheckpointSchema, 'ledger_journal_checkpoints');

const journal = numberedChains<Pick<JournalSlotDoc, 'n'>>(JournalSlotModel, { separator: '#', projection: { n: 1 } });

export const journalSlotId = (n: number) => journal.idOf(JOURNAL, n);

/** Appends a slot for `entry` (post's step 2): answers its number, which the entry then carries as `seq`. */
export async function appendJournalSlot(entry: Omit<LedgerEntryDoc, 'seq'>): Promise<number> {
  // One append at a time per process (lib/in-turn.ts): concurrent appends of one process would otherwise race each
  // other for every next number (measured: 60 posts at once took 7 s, most of it lost races). Processes still race
  // each other, which the chain's inserts settle.
  const { n } = await inTurn(`ledger-chain:${JOURNAL}`, () => journal.append(JOURNAL, (n) => ({ n, entry: { ...entry, seq: n }, writtenAt: new Date() })));
  return n;
}

/** The journal's last slot number (0 when empty), read to its true end. */
export const journalEnd = async () => (await journal.end(JOURNAL, true)).n;

/** Forgets the journal's end this process remembers (tests that empty the collections). */
export const forgetJournal = () => journal.forget();

/** Inserts numbered slots in bulk (the journal's rebuild, on a quiet database): `entries` get `startN`, `startN + 1`… */
export async function insertJournalSlots(startN: number, entries: LedgerEntryDoc[], writtenAt: Date): Promise<void> {
  if (!entries.length) return;
  const slots = entries.map((entry, i) => ({ _id: journalSlotId(startN + i), n: startN + i, entry: { ...entry, seq: startN + i }, writtenAt }));
  await JournalSlotModel.collection.insertMany(slots as never[], { ordered: true });
  journal.forget();
}

/** Where a consumer's pass stands: the slots it has handled whole are 1..n. */
export const checkpointOf = async (consumer: string) => (await readById<JournalCheckpointDoc>(JournalCheckpointModel, consumer))?.n ?? 0;

/** Moves a consumer's checkpoint (under its lease, so a plain write by `_id`). */
export async function saveCheckpoint(consumer: string, n: number): Promise<void> {
  await JournalCheckpointModel.collection.updateOne({ _id: consumer as never }, { $set: { n, at: new Date() } }, { upsert: true });
}

/** What a slot turned out to be when read. */
type SlotState = { kind: 'live'; entry: LedgerEntryDoc; completed?: true } | { kind: 'dud' } | { kind: 'in-flight' };

/**
 * A slot's state: live (its entry is stored with this `seq`), a dud (the entry is stored from another slot) or in
 * flight. Past its grace period an in-flight slot is completed here: its entry inserted from the slot.
 */
async function settle(slot: JournalSlotDoc, now: number, graceMs: number): Promise<SlotState> {
  const stored = await readById<LedgerEntryDoc>(LedgerEntryModel, slot.entry._id);
  if (stored) return stored.seq === slot.n ? { kind: 'live', entry: stored } : { kind: 'dud' };
  if (now - new Date(slot.writtenAt).getTime() < graceMs) return { kind: 'in-flight' };
  try {
    await insertWhole(LedgerEntryModel, { ...slot.entry, seq: slot.n });
    return { kind: 'live', entry: { ...slot.entry, seq: slot.n }, completed: true };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // The original (or a retry) landed between the read and this insert.
    const landed = await readById<LedgerEntryDoc>(LedgerEntryModel, slot.entry._id);
    return landed?.seq === slot.n ? { kind: 'live', entry: landed } : { kind: 'dud' };
  }
}

/** The slots handled by one call of a consumer's `handle`: numbers `from`..`to`, both included. */
export interface JournalPosition {
  from: number;
  to: number;
}

export interface ReadJournalOptions {
  /** At most this many slots per batch (read by `_id`, in parallel). */
  batchSize?: number;
  /** At most this many batches in one pass (the rest waits for the next run). */
  maxBatches?: number;
  /** Only slots written at least this long ago (a consumer that must not race the writers' own follow-up steps). */
  minAgeMs?: number;
  /** How long a slot whose entry is missing is waited for before it is completed (tests shorten it). */
  graceMs?: number;
}

export interface JournalPass {
  /** Live entries handed to the consumer. */
  entries: number;
  /** Slots passed over (duds). */
  duds: number;
  /** In-flight slots completed from the journal. */
  completed: number;
  /** The checkpoint after the pass. */
  checkpoint: number;
}

/**
 * Hands `consumer` the entries appended since its checkpoint, in order, in batches of at most `batchSize` slots, and
 * moves its checkpoint after each handled batch (see the contract above). The caller holds the consumer's lease.
 */
export async function readJournal(
  consumer: string,
  handle: (entries: LedgerEntryDoc[], position: JournalPosition) => Promise<void>,
  { batchSize = 200, maxBatches = Infinity, minAgeMs = 0, graceMs = JOURNAL_GRACE_MS }: ReadJournalOptions = {},
): Promise<JournalPass> {
  const pass: JournalPass = { entries: 0, duds: 0, completed: 0, checkpoint: await checkpointOf(consumer) };
  for (let batch = 0; batch < maxBatches; batch++) {
    const from = pass.checkpoint + 1;
    const read = await Promise.all(Array.from({ length: batchSize }, (_, i) => readById<JournalSlotDoc>(JournalSlotModel, journalSlotId(from + i))));
    const firstMissing = read.findIndex((slot) => !slot);
    const slots = (firstMissing === -1 ? read : read.slice(0, firstMissing)) as JournalSlotDoc[];
    const now = Date.now();
    const young = minAgeMs > 0 ? slots.findIndex((slot) => now - new Date(slot.writtenAt).getTime() < minAgeMs) : -1;
    const ready = young === -1 ? slots : slots.slice(0, young);
    const states = await Promise.all(ready.map((slot) => settle(slot, now, graceMs)));
    const inFlight = states.findIndex((state) => state.kind === 'in-flight');
    const handled = inFlight === -1 ? states : states.slice(0, inFlight);
    if (!handled.length) break;
    const entries = handled.flatMap((state) => (state.kind === 'live' ? [state.entry] : []));
    const to = pass.checkpoint + handled.length;
    await handle(entries, { from, to });
    await saveCheckpoint(consumer, to);
    pass.entries += entries.length;
    pass.duds += handled.length - entries.length;
    pass.completed += handled.filter((state) => state.kind === 'live' && state.completed).length;
    pass.checkpoint = to;
    if (handled.length < batchSize) break;
  }
  return pass;
}
