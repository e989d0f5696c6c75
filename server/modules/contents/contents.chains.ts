/**
 * Two kinds of numbered chains (lib/numbered-chain.ts) over the pieces, so that the feeds read them by `_id` alone:
 *
 * - `changes`: every piece published, re-listed (made public or released from review), re-posted, or handed to
 *   another owner, in order. The feeds' ranked lists are built by a job from a scan of the pieces; a reader takes the
 *   chain's numbers after the build's mark (a few minutes of changes) and merges those pieces in, so that a new piece
 *   tops Newest at once instead of at the next build.
 * - `owner:{ownerId}` and `owner:{ownerId}:{type}`: a member's pieces in the order they became theirs, newest last,
 *   which a profile pages from its end down. An entry is never removed: a piece deleted or handed to another member
 *   is skipped by the reader, who reads every piece by `_id` anyway to show it.
 */
import { Schema, model, type Types } from 'mongoose';
import { numberedChains } from '../../lib/numbered-chain';
import { readById } from '../../lib/query';

export interface PieceChainEntry {
  contentId: Types.ObjectId;
  ownerId: Types.ObjectId;
  at: Date;
}

const chainEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    ownerId: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
export const PieceChainModel = model('PieceChain', chainEntrySchema, 'piece_chains');

const SEPARATOR = '#';
const chains = numberedChains<PieceChainEntry>(PieceChainModel, { separator: SEPARATOR, projection: { contentId: 1, ownerId: 1, at: 1 } });
const CHANGES = 'changes';

export const ownerChainOf = (ownerId: unknown, type?: string) => (type ? `owner:${String(ownerId)}:${type}` : `owner:${String(ownerId)}`);
export const pieceChainEntryId = (chain: string, n: number) => chains.idOf(chain, n);

/** Notes that a piece changed in a way a feed must show before its next build (published, re-listed, re-posted). */
export async function notePieceChange(piece: { _id: Types.ObjectId; ownerId: Types.ObjectId }): Promise<void> {
  await chains.append(CHANGES, () => ({ contentId: piece._id, ownerId: piece.ownerId, at: new Date() }));
}

/** Appends a piece to its owner's lists (all pieces, and those of its type), then notes the change. */
export async function notePieceOwned(piece: { _id: Types.ObjectId; ownerId: Types.ObjectId; type: string }): Promise<void> {
  const entry = () => ({ contentId: piece._id, ownerId: piece.ownerId, at: new Date() });
  await Promise.all([chains.append(ownerChainOf(piece.ownerId), entry), chains.append(ownerChainOf(piece.ownerId, piece.type), entry)]);
  await notePieceChange(piece);
}

/** The number of the last change noted (the mark a feed build records before it reads the pieces). */
export const pieceChangesEnd = async () => (await chains.end(CHANGES, true)).n;

/**
 * The changes after number `mark`, newest first, at most `cap` of them (the newest): what a feed merges into a build
 * made at `mark`. Bounded by the changes of one build period, not by the catalogue.
 */
export async function pieceChangesSince(mark: number, cap: number): Promise<PieceChainEntry[]> {
  const end = await pieceChangesEnd();
  const from = Math.max(mark + 1, end - cap + 1);
  const numbers = Array.from({ length: Math.max(0, end - from + 1) }, (_, i) => end - i);
  const found = await Promise.all(numbers.map((n) => readById<PieceChainEntry>(PieceChainModel, chains.idOf(CHANGES, n))));
  return found.filter((entry): entry is PieceChainEntry => entry !== null);
}

/** The changes numbered `from`..`to` (both included), oldest first: a job that follows the changes from its checkpoint. */
export async function pieceChangesBetween(from: number, to: number): Promise<PieceChainEntry[]> {
  const numbers = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const found = await Promise.all(numbers.map((n) => readById<PieceChainEntry>(PieceChainModel, chains.idOf(CHANGES, n))));
  return found.filter((entry): entry is PieceChainEntry => entry !== null);
}

/** The end of a member's list (0 when empty). */
export const ownerChainEnd = async (ownerId: unknown, type?: string) => (await chains.end(ownerChainOf(ownerId, type), true)).n;

/** Entries `from`, `from - 1`, … (at most `count`, never below 1) of a member's list, each with its number. */
export async function ownerChainDown(ownerId: unknown, type: string | undefined, from: number, count: number) {
  const chain = ownerChainOf(ownerId, type);
  const numbers = Array.from({ length: Math.max(0, Math.min(count, from)) }, (_, i) => from - i);
  const found = await Promise.all(numbers.map(async (n) => ({ n, entry: await readById<PieceChainEntry>(PieceChainModel, chains.idOf(chain, n)) })));
  return found.filter((row): row is { n: number; entry: PieceChainEntry } => row.entry !== null);
}

/**
 * Rewrites a member's lists whole, as `pieces` (oldest first) say (the rebuild of the feed lists, on a quiet
 * database: a list is deleted and written again, so no process may be appending to it).
 */
export async function rewriteOwnerChains(chainsToWrite: Map<string, { contentId: Types.ObjectId; ownerId: Types.ObjectId; at: Date }[]>): Promise<void> {
  const names = [...chainsToWrite.keys()];
  const batch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (batch.length) await PieceChainModel.collection.insertMany(batch.splice(0), { ordered: false });
  };
  for (const name of names) {
    chainsToWrite.get(name)!.forEach((entry, i) => batch.push({ _id: chains.idOf(name, i + 1), ...entry }));
    if (batch.length >= 1000) await flush();
  }
  await flush();
  chains.forget();
}

/** Deletes the entries of lists by `_id` (the rebuild, before it writes them again). */
export async function deleteChainEntries(ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    await PieceChainModel.bulkWrite(
      ids.slice(i, i + 1000).map((id) => ({ deleteOne: { filter: { _id: id } } })),
      { ordered: false },
    );
  }
  chains.forget();
}

/** Every owner-list entry there is (the rebuild's and the check's full read): `{ chain, n, contentId }`. */
export async function everyOwnerChainEntry(): Promise<{ chain: string; n: number; contentId: Types.ObjectId }[]> {
  const rows: { chain: string; n: number; contentId: Types.ObjectId }[] = [];
  const cursor = PieceChainModel.collection.find({}, { projection: { contentId: 1 } });
  for await (const doc of cursor) {
    const id = String(doc._id);
    if (!id.startsWith('owner:')) continue;
    const at = id.lastIndexOf(SEPARATOR);
    rows.push({ chain: id.slice(0, at), n: Number(id.slice(at + 1)), contentId: doc.contentId as Types.ObjectId });
  }
  return rows;
}

/** Forgets the chain ends this process knows, for tests that empty the collection under a running app. */
export const forgetPieceChains = () => chains.forget();
