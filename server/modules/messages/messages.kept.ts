/**
 * The kept states of messages (lib/kept-state.ts), recounted from the facts in bulk: each thread's messages (its
 * last message is what every side of it should show), each side's last version (its read, important and deleted
 * marks), and the chains kept from them (messages.state.ts):
 *
 * - `unread-counts`: each side's last version against the messages, and each member's counts (the end of their
 *   count changes) against the sum over their sides;
 * - `inbox-lists`: each member's thread activity has an entry that stands for each of their sides (the entry of the
 *   side's last message), so that every thread is in their inbox or their deleted list.
 *
 * Both read every message, side, version and chain entry once, with cursors, and write in batches; a rebuild only
 * appends (a version, a count change, an activity entry) after what is there, so a process that remembers a chain's
 * end finds the new one at its next write. Meant for a quiet database, as every rebuild.
 */
import { Types } from 'mongoose';
import type { Collection } from 'mongoose';

/** A document as the driver writes it. */
type Stored = Record<string, unknown>;
import { comparedState, type KeptStateReport, noteDifference } from '../../lib/kept-state';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { ours } from '../../lib/query';
import {
  BOX_STATE_FIELDS,
  BoxModel,
  BoxVersionModel,
  CountChangeModel,
  CountSnapshotModel,
  InboxEntryModel,
  InboxHeadModel,
  MessageModel,
  type BoxDoc,
  type BoxState,
  type CountTotals,
} from './messages.model';
import { boxStateOf, countsOfSide, NO_COUNTS } from './messages.state';

/** Documents written per insertMany / bulkWrite. */
const BATCH = 1000;

/** Every document of a collection, a batch at a time. */
async function eachDocument<T>(collection: Collection, projection: Record<string, 1>, use: (doc: T) => void): Promise<void> {
  for await (const doc of collection.find({}, { projection, batchSize: BATCH })) use(doc as T);
}

/** `{chain}{separator}{n}`: the chain and the number. */
function chainAndNumber(id: string, separator: string): [string, number] {
  const at = id.lastIndexOf(separator);
  return [id.slice(0, at), Number(id.slice(at + 1))];
}

async function inBatches<T>(items: T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) await write(items.slice(i, i + BATCH));
}

/** Inserts in batches; a document whose `_id` was taken meanwhile (an app writing) is skipped and counted. */
async function insertAll(collection: Collection, docs: Stored[]): Promise<number> {
  let taken = 0;
  await inBatches(docs, async (batch) => {
    try {
      await collection.insertMany(batch, { ordered: false });
    } catch (err) {
      const written = (err as { writeErrors?: unknown[] }).writeErrors;
      if (!isDuplicateKey(err) && !written) throw err;
      taken += Array.isArray(written) ? written.length : 1;
    }
  });
  return taken;
}

interface Side {
  box: BoxDoc;
  /** The side's last version (0 for none: the side document's own fields are its state). */
  v: number;
  kept: BoxState;
  /** What the facts say the side is now. */
  state: BoxState;
}

interface Recount {
  sides: Side[];
  countsByMember: Map<string, CountTotals>;
}

/** Every side, its last version and what the messages say it is. */
async function recountSides(): Promise<Recount> {
  const lastMessage = new Map<string, { n: number; at: Date; senderId: Types.ObjectId; text: string }>();
  await eachDocument<{ _id: string; at: Date; senderId: Types.ObjectId; text: string }>(
    MessageModel.collection,
    { _id: 1, at: 1, senderId: 1, text: 1 },
    (doc) => {
      const [threadId, n] = chainAndNumber(doc._id, '-');
      if (n > (lastMessage.get(threadId)?.n ?? 0)) lastMessage.set(threadId, { n, at: doc.at, senderId: doc.senderId, text: doc.text });
    },
  );
  const lastVersion = new Map<string, { v: number; state: BoxState }>();
  await eachDocument<BoxState & { _id: string }>(BoxVersionModel.collection, { _id: 1, ...BOX_STATE_FIELDS }, (doc) => {
    const [side, v] = chainAndNumber(doc._id, '#');
    if (v > (lastVersion.get(side)?.v ?? 0)) lastVersion.set(side, { v, state: boxStateOf(doc) });
  });
  const sides: Side[] = [];
  const countsByMember = new Map<string, CountTotals>();
  await eachDocument<BoxDoc>(BoxModel.collection, { _id: 1, threadId: 1, userId: 1, otherId: 1, ...BOX_STATE_FIELDS }, (box) => {
    const version = lastVersion.get(box._id);
    const kept = version?.state ?? boxStateOf(box);
    const last = lastMessage.get(box.threadId);
    // As a reply does: a newer message is the side's last, brings a deleted side back, and is read by its sender.
    const state =
      last && last.n > kept.lastN
        ? {
            ...kept,
            at: last.at,
            lastN: last.n,
            lastSenderId: last.senderId,
            lastText: last.text,
            deletedAt: null,
            readN: last.senderId.equals(box.userId) ? last.n : kept.readN,
          }
        : kept;
    sides.push({ box, v: version?.v ?? 0, kept, state });
    const member = String(box.userId);
    const side = countsOfSide(state);
    const sum = countsByMember.get(member) ?? NO_COUNTS;
    countsByMember.set(member, {
      unread: sum.unread + side.unread,
      important: sum.important + side.important,
      deleted: sum.deleted + side.deleted,
      total: sum.total + side.total,
    });
  });
  return { sides, countsByMember };
}

/** Each member's count changes: the last number and the counts it holds. */
async function countChainEnds(): Promise<Map<string, { n: number; totals: CountTotals }>> {
  const ends = new Map<string, { n: number; totals: CountTotals }>();
  await eachDocument<CountTotals & { _id: string }>(CountChangeModel.collection, { _id: 1, unread: 1, important: 1, deleted: 1, total: 1 }, (doc) => {
    const [member, n] = chainAndNumber(doc._id, '#');
    if (n > (ends.get(member)?.n ?? 0))
      ends.set(member, { n, totals: { unread: doc.unread, important: doc.important, deleted: doc.deleted, total: doc.total } });
  });
  return ends;
}

const sameCounts = (a: CountTotals, b: CountTotals) => a.unread === b.unread && a.important === b.important && a.deleted === b.deleted && a.total === b.total;
/** A side behind its thread's messages (a process stopped between a message and its versions). */
const sideLags = (side: Side) => side.state !== side.kept;
const countsText = (c: CountTotals) => `unread ${c.unread}, important ${c.important}, deleted ${c.deleted}, total ${c.total}`;

async function compareCounts(write: boolean): Promise<KeptStateReport> {
  const { sides, countsByMember } = await recountSides();
  const differences: string[] = [];
  const lagging = sides.filter(sideLags);
  for (const side of lagging)
    noteDifference(differences, `side ${side.box._id}: its last version has message ${side.kept.lastN}, the thread has ${side.state.lastN}`);
  const ends = await countChainEnds();
  const members = new Set([...countsByMember.keys(), ...ends.keys()]);
  const corrections: { member: string; n: number; totals: CountTotals }[] = [];
  for (const member of members) {
    const kept = ends.get(member)?.totals ?? NO_COUNTS;
    const recounted = countsByMember.get(member) ?? NO_COUNTS;
    if (sameCounts(kept, recounted)) continue;
    noteDifference(differences, `member ${member}: kept ${countsText(kept)}; the sides say ${countsText(recounted)}`);
    corrections.push({ member, n: (ends.get(member)?.n ?? 0) + 1, totals: recounted });
  }
  if (write) {
    // Each lagging side gets a version holding what the messages say, and its copy is that version.
    await insertAll(
      BoxVersionModel.collection,
      lagging.map((side) => ({ _id: `${side.box._id}#${side.v + 1}`, threadId: side.box.threadId, userId: side.box.userId, ...side.state })),
    );
    await inBatches(lagging, (batch) =>
      BoxModel.collection.bulkWrite(
        batch.map((side) => ({ updateOne: { filter: { _id: side.box._id as never }, update: { $set: { ...side.state, v: side.v + 1 } } } })),
      ),
    );
    // A member whose counts differ gets a count change that sets them right, after their last one.
    await insertAll(
      CountChangeModel.collection,
      corrections.map(({ member, n, totals }) => ({ _id: `${member}#${n}`, userId: new Types.ObjectId(member), threadId: '', v: 0, ...totals })),
    );
    await inBatches(corrections, (batch) =>
      CountSnapshotModel.collection.bulkWrite(
        batch.map(({ member, n, totals }) => ({ updateOne: { filter: { _id: member as never }, update: { $set: { n, ...totals } }, upsert: true } })),
      ),
    );
  }
  return { checked: sides.length + members.size, differences };
}

async function compareLists(write: boolean): Promise<KeptStateReport> {
  const { sides } = await recountSides();
  const listed = new Set<string>();
  const ends = new Map<string, number>();
  await eachDocument<{ _id: string; threadId: string; lastN: number }>(InboxEntryModel.collection, { _id: 1, threadId: 1, lastN: 1 }, (entry) => {
    const [member, n] = chainAndNumber(entry._id, '#');
    listed.add(`${member}|${entry.threadId}|${entry.lastN}`);
    if (n > (ends.get(member) ?? 0)) ends.set(member, n);
  });
  const differences: string[] = [];
  const missing = new Map<string, Side[]>();
  for (const side of sides) {
    const member = String(side.box.userId);
    if (listed.has(`${member}|${side.box.threadId}|${side.state.lastN}`)) continue;
    noteDifference(differences, `member ${member}: thread ${side.box.threadId} (message ${side.state.lastN}) is in neither their inbox nor their deleted list`);
    missing.set(member, [...(missing.get(member) ?? []), side]);
  }
  if (write) {
    // The missing threads go on top of each list, the newest last so that it is listed first.
    const entries: Stored[] = [];
    const heads: { member: string; n: number }[] = [];
    for (const [member, missed] of missing) {
      let n = ends.get(member) ?? 0;
      for (const side of missed.sort((a, b) => a.state.at.getTime() - b.state.at.getTime() || (a.box.threadId < b.box.threadId ? -1 : 1)))
        entries.push({ _id: `${member}#${++n}`, userId: side.box.userId, threadId: side.box.threadId, lastN: side.state.lastN });
      heads.push({ member, n });
    }
    await insertAll(InboxEntryModel.collection, entries);
    await inBatches(heads, (batch) =>
      InboxHeadModel.collection.bulkWrite(
        batch.map(({ member, n }) => ({ updateOne: { filter: { _id: member as never }, update: { $set: { n } }, upsert: true } })),
      ),
    );
  }
  return { checked: sides.length, differences };
}

export const unreadCountsState = comparedState(
  'unread-counts',
  "Each member's message counts (unread, important, deleted, total: the end of their count changes) and each side's last version, from the threads' messages and the sides' versions.",
  compareCounts,
);

export const inboxListsState = comparedState(
  'inbox-lists',
  "Each member's thread lists (inbox and deleted: their thread activity entries), holding every side they have at its last message; after unread-counts, which brings the sides to their messages.",
  compareLists,
);

/**
 * Sides written before versions, counts and thread lists existed (no `v`: an older database, or sides written in
 * bulk): builds what their members lack, then marks them, so that it runs once (at start; a scan of the sides, as the
 * other start-up steps do).
 */
export async function buildStatesOfOlderSides(): Promise<boolean> {
  const older = () => ours({ v: { $exists: false } });
  if (!(await BoxModel.exists(older()))) return false;
  await unreadCountsState.rebuild();
  await inboxListsState.rebuild();
  await BoxModel.updateMany(older(), { $set: { v: 0 } });
  return true;
}
