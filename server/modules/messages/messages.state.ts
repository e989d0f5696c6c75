/**
 * The exact state of each member's side of a thread, their counts and their thread lists, built from inserted facts
 * only, so that they stay exact on FerretDB (whose updates are read, change, write without isolation) with any
 * number of app processes, and so that every read is a bounded number of reads by `_id`:
 *
 * - a side's changes are versions (`message_box_versions`, a numbered chain per side): a change reads the side's
 *   last version and inserts the next number, and only one writer gets it, so concurrent changes (a reply, a read
 *   mark, a delete) each apply to the state before them. The side document keeps a copy of a version (`v`);
 *   readers read it, then the versions after it (usually one read that finds none);
 * - a member's counts are a chain of count changes (`message_count_changes`), each appended by the writer of the
 *   version that caused it and holding the counts after it, with a kept snapshot (`message_counts`) that the
 *   reader reads first and then the few changes after it;
 * - a member's thread list is a chain of thread activity (`message_inbox_entries`): one entry per message, read
 *   from the end down. An entry stands for its thread while the side's last message is that entry's message; an
 *   entry is appended before the side takes its message, so a thread keeps its older place until then and never
 *   drops out of the list.
 *
 * A process that stops between a fact and the next one leaves that member's counts or list behind: a side behind its
 * thread (a message its versions never took), and a version whose count change was never written, are found by their
 * marks (messages.pending.ts) and finished by the message-repairs job (messages.service.ts `repairLostSteps`). `npm run rebuild -- unread-counts inbox-lists` (messages.kept.ts) puts both right; every
 * interleaving of processes that do not stop is exact.
 */
import type { Types } from 'mongoose';
import type { ChainEnd } from '../../lib/numbered-chain';
import { numberedChains } from '../../lib/numbered-chain';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { keepHint, readById } from '../../lib/query';
import {
  BOX_STATE_FIELDS,
  boxKey,
  BoxModel,
  BoxVersionModel,
  CountChangeModel,
  type BoxVersionDoc,
  type CountChangeDoc,
  CountSnapshotModel,
  InboxEntryModel,
  InboxHeadModel,
  type BoxDoc,
  type VersionPendingDoc,
  type BoxState,
  type CountSnapshotDoc,
  type CountTotals,
  type InboxEntryDoc,
} from './messages.model';
import { MESSAGE_CHANGE_GRACE_MS, markVersion, messageSteps } from './messages.pending';

const boxVersions = numberedChains<BoxState>(BoxVersionModel, { separator: '#', projection: BOX_STATE_FIELDS });
const countChanges = numberedChains<CountTotals>(CountChangeModel, {
  separator: '#',
  projection: { unread: 1, important: 1, deleted: 1, total: 1 },
});
const inboxEntries = numberedChains<Pick<InboxEntryDoc, 'threadId' | 'lastN'>>(InboxEntryModel, {
  separator: '#',
  projection: { threadId: 1, lastN: 1 },
});

export const NO_COUNTS: CountTotals = { unread: 0, important: 0, deleted: 0, total: 0 };

/** Forgets the chain ends this process remembers, for tests that empty the collections under a running app. */
export function forgetMessageStates(): void {
  boxVersions.forget();
  countChanges.forget();
  inboxEntries.forget();
}

export const boxStateOf = (box: BoxState): BoxState => ({
  at: box.at,
  lastN: box.lastN,
  lastSenderId: box.lastSenderId,
  lastText: box.lastText,
  readN: box.readN,
  isImportant: Boolean(box.isImportant),
  deletedAt: box.deletedAt ?? null,
});

/** What one side adds to its member's counts: a deleted side counts only as deleted. */
export function countsOfSide(state: BoxState | null): CountTotals {
  if (!state) return NO_COUNTS;
  if (state.deletedAt) return { ...NO_COUNTS, deleted: 1 };
  return { unread: state.readN < state.lastN ? 1 : 0, important: state.isImportant ? 1 : 0, deleted: 0, total: 1 };
}

const plus = (a: CountTotals, b: CountTotals, sign = 1): CountTotals => ({
  unread: a.unread + sign * b.unread,
  important: a.important + sign * b.important,
  deleted: a.deleted + sign * b.deleted,
  total: a.total + sign * b.total,
});
const isZero = (c: CountTotals) => !c.unread && !c.important && !c.deleted && !c.total;
const totalsOf = (doc: CountTotals | null): CountTotals =>
  doc ? { unread: doc.unread, important: doc.important, deleted: doc.deleted, total: doc.total } : NO_COUNTS;

const sameState = (a: BoxState, b: BoxState) =>
  a.at.getTime() === b.at.getTime() &&
  a.lastN === b.lastN &&
  String(a.lastSenderId) === String(b.lastSenderId) &&
  a.lastText === b.lastText &&
  a.readN === b.readN &&
  a.isImportant === b.isImportant &&
  (a.deletedAt?.getTime() ?? null) === (b.deletedAt?.getTime() ?? null);

/**
 * Writes a kept snapshot (a document by `_id` that readers read first and then read on past): best-effort, as
 * a concurrent write may win with an older figure, which only costs the next reader a read or two more.
 */
async function keepSnapshot(model: typeof CountSnapshotModel | typeof InboxHeadModel, id: string, fields: Record<string, unknown>): Promise<void> {
  await keepHint(model, id, fields);
}

/** The side's last version, from its kept copy and the versions after it (exact whatever copy was kept). */
async function lastVersion(box: BoxDoc): Promise<ChainEnd<BoxState>> {
  const end = await boxVersions.end(box._id, true, { n: box.v ?? 0, doc: boxStateOf(box) });
  return { n: end.n, doc: boxStateOf(end.doc ?? box) };
}

/** A member's side of a thread as it stands now (null when they have none), read by `_id`. */
export async function currentBox(threadId: string, userId: string): Promise<BoxDoc | null> {
  const box = await readById<BoxDoc>(BoxModel, boxKey(threadId, userId));
  if (!box) return null;
  const last = await lastVersion(box);
  return { ...box, ...boxStateOf(last.doc!), v: last.n };
}

/** A member's counts now: their kept snapshot, then the count changes after it. */
export async function countsOf(userId: string): Promise<CountTotals> {
  const snapshot = await readById<CountSnapshotDoc>(CountSnapshotModel, userId);
  const end = await countChanges.end(userId, true, snapshot ? { n: snapshot.n, doc: totalsOf(snapshot) } : undefined);
  return totalsOf(end.doc);
}

/** Adds a version's change of counts to its member's chain, the counts after it kept in the snapshot. */
async function recordCountChange(userId: Types.ObjectId, threadId: string, v: number, before: BoxState | null, after: BoxState): Promise<boolean> {
  const change = plus(countsOfSide(after), countsOfSide(before), -1);
  if (isZero(change)) return false;
  const member = String(userId);
  // A process that has not written this member's changes yet starts from the snapshot, not from the chain's start.
  if ((await countChanges.end(member, false)).n === 0) {
    const snapshot = await readById<CountSnapshotDoc>(CountSnapshotModel, member);
    if (snapshot) await countChanges.end(member, true, { n: snapshot.n, doc: totalsOf(snapshot) });
  }
  faultPoint(FAULT_POINTS.messageAfterVersion);
  const { n, doc } = await countChanges.append(member, (_n, previous) => ({
    userId,
    threadId,
    v,
    ...plus(totalsOf(previous.doc), change),
    writtenAt: new Date(),
  }));
  await keepSnapshot(CountSnapshotModel, member, { n, ...totalsOf(doc) });
  return true;
}

/**
 * Inserts a side's first version and its count change (a new thread: nobody else knows the thread yet). The side
 * document itself is inserted by the caller, with `v: 1`.
 */
export async function firstVersion(box: BoxDoc): Promise<void> {
  const state = boxStateOf(box);
  const mark = await markVersion(box.threadId, box.userId, 1);
  await boxVersions.insertAt(box._id, 1, { threadId: box.threadId, userId: box.userId, ...state });
  await recordCountChange(box.userId, box.threadId, 1, null, state);
  await messageSteps.clear(mark);
}

/**
 * Changes a member's side of a thread: `next` gets the state now and answers the state after (null: no change).
 * Called again with the newer state when another change took the version first. Answers the side after it.
 */
export async function changeBox(threadId: string, userId: string, next: (state: BoxState) => BoxState | null): Promise<BoxDoc | null> {
  const box = await readById<BoxDoc>(BoxModel, boxKey(threadId, userId));
  if (!box) return null;
  for (;;) {
    const last = await lastVersion(box);
    const before = last.doc!;
    const changed = next(before);
    const after = changed && boxStateOf(changed);
    if (!after || sameState(before, after)) return { ...box, ...before, v: last.n };
    const v = last.n + 1;
    const mark = await markVersion(threadId, box.userId, v);
    const inserted = await boxVersions.insertAt(box._id, v, { threadId, userId: box.userId, ...after });
    if (inserted) await recordCountChange(box.userId, threadId, v, before, after);
    await messageSteps.clear(mark);
    if (inserted) {
      await keepBoxCopy(box._id, v, after);
      return { ...box, ...after, v };
    }
  }
}

/**
 * Whether the member's count changes written since `since` hold the one of version `v` of their side of the thread:
 * read from the chain's end down, until a change written before `since` (or one from before changes kept their time).
 */
async function hasCountChange(member: string, threadId: string, v: number, since: Date): Promise<boolean> {
  const snapshot = await readById<CountSnapshotDoc>(CountSnapshotModel, member);
  const end = await countChanges.end(member, true, snapshot ? { n: snapshot.n, doc: totalsOf(snapshot) } : undefined);
  for (let n = end.n; n >= 1; n -= 1) {
    const change = await readById<CountChangeDoc>(CountChangeModel, countChanges.idOf(member, n), { threadId: 1, v: 1, writtenAt: 1 });
    if (!change || !change.writtenAt || change.writtenAt < since) return false;
    if (change.threadId === threadId && change.v === v) return true;
  }
  return false;
}

/**
 * The message-repairs job's step for a side's version marked more than MESSAGE_CHANGE_GRACE_MS ago: when the version
 * is there but its count change is not (its process died between the two), appends that change, from the version
 * before it to this one; it reads the member's count changes since the mark. Answers how many it appended (0 or 1).
 */
export async function finishVersion(mark: VersionPendingDoc): Promise<number> {
  const id = boxKey(mark.threadId, String(mark.userId));
  const [version, previous] = await Promise.all([
    readById<BoxVersionDoc>(BoxVersionModel, boxVersions.idOf(id, mark.v)),
    mark.v > 1 ? readById<BoxVersionDoc>(BoxVersionModel, boxVersions.idOf(id, mark.v - 1)) : Promise.resolve(null),
  ]);
  const since = new Date(mark.writtenAt.getTime() - MESSAGE_CHANGE_GRACE_MS);
  if (!version || (await hasCountChange(String(mark.userId), mark.threadId, mark.v, since))) return 0;
  return Number(await recordCountChange(mark.userId, mark.threadId, mark.v, previous && boxStateOf(previous), boxStateOf(version)));
}

/** The side document's copy of a version (best-effort, like every kept snapshot: the reader reads on past it). */
async function keepBoxCopy(id: string, v: number, state: BoxState): Promise<void> {
  await BoxModel.collection.updateOne({ _id: id as never }, { $set: { ...state, v } });
}

/** Appends an entry that puts the thread at the top of the member's list for message `lastN` (before the side takes it). */
export async function addInboxEntry(userId: Types.ObjectId, threadId: string, lastN: number): Promise<void> {
  const member = String(userId);
  if ((await inboxEntries.end(member, false)).n === 0) {
    const head = await readById<{ n: number }>(InboxHeadModel, member);
    if (head && head.n > 0) await inboxEntries.end(member, true, { n: head.n, doc: null });
  }
  const { n } = await inboxEntries.append(member, () => ({ userId, threadId, lastN }));
  await keepSnapshot(InboxHeadModel, member, { n });
}

/** The number of the member's last thread activity entry now (0 for none). */
async function lastInboxEntry(member: string): Promise<number> {
  const head = await readById<{ n: number }>(InboxHeadModel, member);
  return (await inboxEntries.end(member, true, head && head.n > 0 ? { n: head.n, doc: null } : undefined)).n;
}

/** At most this many activity entries are read for one page, whatever the page size: the read stays bounded. */
export const ENTRIES_READ_PER_PAGE = 200;
/** Entries read at once (in parallel, each by `_id`). */
const ENTRIES_PER_BATCH = 25;
/** A run of at least this many entries that stand for nothing gets a pointer past it (InboxEntryDoc's `below`). */
const SKIP_AFTER = 8;

/**
 * Every thread the member's thread activity names, each once: the whole list, read by `_id` a batch at a time from
 * its end down. For "Download my data", which then reads every message of these threads: the list has one entry per
 * message, so this costs about as many reads again. An entry that no longer stands for its thread (a newer message
 * took over) still names it, so no thread is passed over; whether the member still has it is for their side to say.
 */
export async function threadIdsListed(userId: string): Promise<string[]> {
  const threads = new Set<string>();
  for (let from = await lastInboxEntry(userId); from >= 1; from -= ENTRIES_PER_BATCH) {
    const numbers = Array.from({ length: Math.min(ENTRIES_PER_BATCH, from) }, (_, i) => from - i);
    const entries = await Promise.all(numbers.map((n) => readById<InboxEntryDoc>(InboxEntryModel, inboxEntries.idOf(userId, n), { threadId: 1 })));
    for (const entry of entries) if (entry) threads.add(entry.threadId);
  }
  return [...threads];
}

/** Where a page of a member's thread list starts. */
export interface ThreadListPosition {
  /** The entry to read on from (below it). */
  below: number;
  /** The last entry read that still stands (0 for none), for the pointer past a run that goes on into this page. */
  above: number;
}

export interface ThreadListPage {
  boxes: BoxDoc[];
  /** Where the next page starts, or null at the list's start. */
  next: ThreadListPosition | null;
}

/**
 * One page of a member's threads, newest activity first: their activity entries read from `below` down (from the
 * end when null), each kept when it still stands for its thread and the side is (or is not, for the inbox) deleted.
 * Stops at `size` threads, or after ENTRIES_READ_PER_PAGE entries, whichever comes first; a page can then hold fewer
 * threads than asked, with a position to read on from.
 */
export async function threadListPage(userId: string, deleted: boolean, start: ThreadListPosition | null, size: number): Promise<ThreadListPage> {
  let next = start ? start.below : (await lastInboxEntry(userId)) + 1;
  const sides = new Map<string, Promise<BoxDoc | null>>();
  const sideOf = (threadId: string) => {
    if (!sides.has(threadId)) sides.set(threadId, currentBox(threadId, userId));
    return sides.get(threadId)!;
  };
  const found: { n: number; box: BoxDoc }[] = [];
  const listed = new Set<string>();
  const pointers: Promise<void>[] = [];
  /** The pointers past runs known in this read (found on entries or written): entry number to the entry it skips to. */
  const skips = new Map<number, number>();
  // The last entry read that still stands (or may: its side not written yet); every entry read since it stands for nothing.
  let above: { n: number; below?: number } | null = start && start.above > 0 ? { n: start.above } : null;
  let read = 0;
  // Reads one entry past a full page when it can, so that the last page says so (below: null).
  reading: while (next > 1 && read < ENTRIES_READ_PER_PAGE) {
    const numbers = Array.from({ length: Math.min(ENTRIES_PER_BATCH, next - 1, ENTRIES_READ_PER_PAGE - read) }, (_, i) => next - 1 - i);
    const entries = await Promise.all(numbers.map((n) => readById<InboxEntryDoc>(InboxEntryModel, inboxEntries.idOf(userId, n))));
    const boxes = await Promise.all(entries.map((entry) => (entry ? sideOf(entry.threadId) : Promise.resolve(null))));
    read += numbers.length;
    for (const [i, n] of numbers.entries()) {
      const entry = entries[i];
      const box = boxes[i];
      next = n;
      // A newer message of the thread has taken over: this entry stands for nothing, now and for good.
      if (entry && box && box.lastN > entry.lastN) continue;
      if (above && above.n - n - 1 >= SKIP_AFTER && above.below !== n) {
        pointers.push(keepSkip(userId, above.n, n));
        skips.set(above.n, n);
      }
      above = entry ? { n, below: entry.below } : null;
      if (entry?.below !== undefined) skips.set(n, entry.below);
      if (entry && box && box.lastN === entry.lastN && Boolean(box.deletedAt) === deleted && !listed.has(entry.threadId)) {
        listed.add(entry.threadId);
        found.push({ n, box });
        if (found.length > size) break reading;
      }
      // Past a run of entries that stand for nothing, as a reader before found it.
      if (entry?.below !== undefined && entry.below < n - 1) {
        next = entry.below + 1;
        continue reading;
      }
    }
  }
  await Promise.all(pointers);
  if (found.length > size) {
    // The next page starts past the run below the page's last thread when a pointer skips it.
    const last = found[size - 1]!.n;
    const skip = skips.get(last);
    return {
      boxes: found.slice(0, size).map((f) => f.box),
      next: skip !== undefined && skip < last ? { below: skip + 1, above: last } : { below: last, above: last },
    };
  }
  return { boxes: found.map((f) => f.box), next: next > 1 ? { below: next, above: above?.n ?? 0 } : null };
}

/**
 * Notes on entry `from` that the entries between it and `to` stand for nothing (each thread's newer message took
 * over, which no later change undoes), so that the next reader goes from `from` straight to `to`. Best-effort: a
 * pointer that is lost or written over by a shorter one only means more entries read.
 */
async function keepSkip(userId: string, from: number, to: number): Promise<void> {
  await InboxEntryModel.collection.updateOne({ _id: inboxEntries.idOf(userId, from) as never }, { $set: { below: to } }).then(
    () => undefined,
    () => undefined,
  );
}
