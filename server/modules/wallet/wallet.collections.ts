/**
 * The listing fees a member paid to support others' pieces (the wallet's `collections` is 10% of them), counted from
 * the member's chain of fees paid (ledger: `paid:{userId}`, one posting per listing, relisting or refund) and kept as
 * a snapshot per member in `wallet_collections`: `{_id: userId, n, supportedMicros}`, the sum over postings 1..n.
 * A reader takes the snapshot and reads on from posting n + 1 by `_id` until a number is missing, judging each new
 * listing fee by its piece (support when the piece exists and its owner is not the payer), then writes the snapshot
 * again (best-effort: a lost or late write only leaves the next reader a longer tail). So the figure costs a few
 * reads by `_id` however many fees the member paid.
 *
 * A fee is judged when it is first counted. A piece removed, or changing hands, can end or begin its counting as
 * support: the contents module then appends to the payer's chain of support changes (`supportChangesEnd`), and the
 * snapshot keeps the number of that chain it was counted at (`changes`). A reader that finds the chain moved on counts
 * every posting again, from the first (the reads of the member's fees paid, once per such change), so the figure is
 * exact after every change. The change is read before the pieces: one that lands during a count is counted again by
 * the next reader.
 */
import { Schema, model, Types } from 'mongoose';
import { noteDifference, type KeptState, type KeptStateReport, type RebuildOptions } from '../../lib/kept-state';
import { keepHint, readById } from '../../lib/query';
import { contentReads, supportChangesEnd } from '../contents';
import { paidChain, postingsOf, postingsOfFamily, type PostingDoc } from '../ledger';

interface CollectionsDoc {
  _id: string;
  n: number;
  supportedMicros: number;
  /** The payer's chain of support changes as of this count (absent: 0). */
  changes?: number;
}
const collectionsSchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
    supportedMicros: { type: Number, required: true },
    changes: { type: Number, default: undefined },
  },
  { versionKey: false },
);
export const CollectionsModel = model<CollectionsDoc>('WalletCollections', collectionsSchema, 'wallet_collections');

/** How many postings of the tail are read per round (in parallel, by `_id`). */
const TAIL_PAGE = 16;

type Piece = { _id: Types.ObjectId; ownerId: Types.ObjectId };

/** A listing fee paid on a piece the payer does not own supports it; a removed piece supports no one. */
const supports = (piece: Piece | null | undefined, payerId: string) => Boolean(piece && String(piece.ownerId) !== payerId);

/** What the listing fees among `postings` supported, their pieces read by `_id` in parallel. */
async function supportedIn(userId: string, postings: PostingDoc[]): Promise<number> {
  const listings = postings.filter((posting) => posting.kind === 'listing');
  const pieces = await Promise.all(listings.map((posting) => contentReads.byId<Piece>(new Types.ObjectId(posting.contentId), { ownerId: 1 })));
  return listings.reduce((sum, posting, i) => sum + (supports(pieces[i], userId) ? posting.amountMicros : 0), 0);
}

/** The listing fees the member paid on others' pieces, in micro-dollars: the kept snapshot and the postings after it. */
export async function supportedFeesOf(userId: string): Promise<number> {
  const chain = paidChain(userId);
  const [kept, changes] = await Promise.all([readById<CollectionsDoc>(CollectionsModel, userId), supportChangesEnd(userId)]);
  // Counted before a piece it names was removed or changed hands: counted again from the first posting.
  const snapshot = kept && (kept.changes ?? 0) === changes ? kept : null;
  let supportedMicros = snapshot?.supportedMicros ?? 0;
  let n = snapshot?.n ?? 0;
  const from = n;
  // One read first: most reads find the snapshot whole.
  for (let size = 1; ; size = TAIL_PAGE) {
    const page = await postingsOf(chain, n + 1, n + size);
    supportedMicros += await supportedIn(userId, page);
    n += page.length;
    if (page.length < size) break;
  }
  if (n > from || (kept && !snapshot)) await keepHint(CollectionsModel, userId, { n, supportedMicros, changes });
  return supportedMicros;
}

// ---------------------------------------------------------------------------------------------------------------
// The kept state: each snapshot equals the sum its postings give, judged by the pieces as they are now.

const BATCH = 1_000;

/** Per payer, their listing postings in order (number, fee, piece), from every `paid:` chain. */
async function listingsByPayer(): Promise<Map<string, { n: number; amountMicros: number; contentId: string }[]>> {
  const byPayer = new Map<string, { n: number; amountMicros: number; contentId: string }[]>();
  for await (const posting of postingsOfFamily('paid:')) {
    const payer = posting._id.slice('paid:'.length, posting._id.lastIndexOf('#'));
    let list = byPayer.get(payer);
    if (!list) byPayer.set(payer, (list = []));
    if (posting.kind === 'listing') list.push({ n: posting.n, amountMicros: posting.amountMicros, contentId: String(posting.contentId) });
    else list.push({ n: posting.n, amountMicros: 0, contentId: '' });
  }
  for (const list of byPayer.values()) list.sort((a, b) => a.n - b.n);
  return byPayer;
}

/**
 * The owner of each piece named, by id (missing when removed): each piece read by `_id`, a batch at a time in
 * parallel. A filter with `$in` on the ids would read every piece once per batch on FerretDB.
 */
async function ownersOf(contentIds: string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const ids = [...new Set(contentIds.filter(Boolean))];
  for (let i = 0; i < ids.length; i += BATCH) {
    const pieces = await Promise.all(ids.slice(i, i + BATCH).map((id) => contentReads.byId<Piece>(new Types.ObjectId(id), { ownerId: 1 })));
    for (const piece of pieces) if (piece) owners.set(String(piece._id), String(piece.ownerId));
  }
  return owners;
}

/** The sum a payer's first `n` postings give, judged by the pieces' owners now. */
const supportedUpTo = (payer: string, list: { n: number; amountMicros: number; contentId: string }[], n: number, owners: Map<string, string>) =>
  list
    .filter((item) => item.n <= n && item.contentId && owners.has(item.contentId) && owners.get(item.contentId) !== payer)
    .reduce((sum, item) => sum + item.amountMicros, 0);

/** Each payer's count of support changes (contents' chain end), read by `_id`, a batch at a time in parallel. */
async function changesOf(payers: string[]): Promise<Map<string, number>> {
  const changes = new Map<string, number>();
  for (let i = 0; i < payers.length; i += BATCH) {
    const ends = await Promise.all(payers.slice(i, i + BATCH).map((payer) => supportChangesEnd(payer)));
    ends.forEach((end, j) => changes.set(payers[i + j]!, end));
  }
  return changes;
}

/** Each payer's changes are read before the pieces' owners, as a reader reads them. */
async function checkCollections(): Promise<KeptStateReport> {
  const byPayer = await listingsByPayer();
  const snapshots = await CollectionsModel.find({}).lean<CollectionsDoc[]>();
  const changes = await changesOf(snapshots.map((snapshot) => snapshot._id));
  const owners = await ownersOf([...byPayer.values()].flatMap((list) => list.map((item) => item.contentId)));
  const differences: string[] = [];
  for (const snapshot of snapshots) {
    // Counted before a change its next reader will count again from the start: not kept as it stands.
    if ((snapshot.changes ?? 0) !== changes.get(snapshot._id)) continue;
    const list = byPayer.get(snapshot._id) ?? [];
    if (snapshot.n > list.length) {
      noteDifference(differences, `collections of ${snapshot._id}: kept as of posting ${snapshot.n}, the chain has ${list.length}`);
      continue;
    }
    const expected = supportedUpTo(snapshot._id, list, snapshot.n, owners);
    if (expected !== snapshot.supportedMicros)
      noteDifference(differences, `collections of ${snapshot._id}: kept ${snapshot.supportedMicros} as of posting ${snapshot.n}, the fees give ${expected}`);
  }
  return { checked: snapshots.length, differences };
}

/** Writes every payer's snapshot as of their chain's end (so no reader has a long tail), and drops the others. */
async function rebuildCollections({ compare = true }: RebuildOptions = {}): Promise<KeptStateReport> {
  const report = compare ? await checkCollections() : null;
  const byPayer = await listingsByPayer();
  const changes = await changesOf([...byPayer.keys()]);
  const owners = await ownersOf([...byPayer.values()].flatMap((list) => list.map((item) => item.contentId)));
  await CollectionsModel.collection.deleteMany({});
  const docs = [...byPayer].map(([payer, list]) => ({
    _id: payer,
    n: list.length,
    supportedMicros: supportedUpTo(payer, list, list.length, owners),
    changes: changes.get(payer) ?? 0,
  }));
  for (let i = 0; i < docs.length; i += BATCH) await CollectionsModel.collection.insertMany(docs.slice(i, i + BATCH) as never[], { ordered: false });
  return report ?? { checked: docs.length, differences: [] };
}

export const walletCollectionsState: KeptState = {
  name: 'wallet-collections',
  describe:
    "Members' listing fees paid on others' pieces (the wallet's collections): a snapshot per payer over their chain of fees paid, rebuilt from it and the pieces' owners.",
  check: checkCollections,
  rebuild: rebuildCollections,
};
