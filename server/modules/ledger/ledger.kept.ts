/**
 * The ledger's kept states (lib/kept-state.ts): the journal, and the running totals kept as chains of postings
 * (members' balances, pieces' earnings, members' knacked pieces), each checked against and rebuilt from the entries.
 *
 * Rebuilds are for a quiet database (no app writing): the large seed writes the entries alone and runs them, in the
 * registry's order (the journal first, since the postings' claims are keyed by what the journal's consumer has seen).
 * They stream the entries in the ledger's order (`at`, `_id`) and write in batches of 1,000.
 */
import { duplicateKeyPlaces } from '../../lib/duplicate-key';
import { noteDifference, type KeptState, type KeptStateReport, type RebuildOptions } from '../../lib/kept-state';
import { ours } from '../../lib/query';
import { LEDGER_BALANCES_CONSUMER } from './ledger.balances-job';
import { forgetLedgerChains } from './ledger.forget';
import { checkpointOf, insertJournalSlots, journalEnd, JournalSlotModel, JOURNAL_GRACE_MS, saveCheckpoint, type JournalSlotDoc } from './ledger.journal';
import { LedgerEntryModel, type LedgerEntryDoc } from './ledger.model';
import {
  ChainHeadModel,
  claimId,
  listId,
  movesOf,
  PostingClaimModel,
  PostingModel,
  postingId,
  type ChainHeadDoc,
  type ChainMove,
  type PostingDoc,
} from './ledger.postings';

const BATCH = 1_000;
const LEDGER_ORDER = { at: 1, _id: 1 } as const;
const MOVE_FIELDS = { _id: 1, kind: 1, at: 1, legs: 1, contentId: 1, actorId: 1, currency: 1, amountMicros: 1, seq: 1 } as const;

/** Every entry, in the ledger's order, with the fields asked, a batch at a time. */
const entriesInOrder = <T>(fields: Record<string, 1>) =>
  LedgerEntryModel.find({}, fields).sort(LEDGER_ORDER).lean<T>().cursor({ batchSize: BATCH }) as unknown as AsyncIterable<T>;

/** `fn` over `items` in batches of BATCH. */
async function inBatches<T>(items: AsyncIterable<T> | Iterable<T>, fn: (batch: T[]) => Promise<void>): Promise<void> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === BATCH) {
      await fn(batch);
      batch = [];
    }
  }
  if (batch.length) await fn(batch);
}

// ---------------------------------------------------------------------------------------------------------------
// The journal: every entry in exactly one live slot.

interface JournalFindings {
  entries: number;
  /** Entries without a live slot, in the ledger's order. */
  unslotted: string[];
  differences: string[];
}

async function examineJournal(): Promise<JournalFindings> {
  const slotOf = new Map<number, { entryId: string; writtenAt: Date }>();
  const slots = JournalSlotModel.find({}, { n: 1, 'entry._id': 1, writtenAt: 1 }).lean<JournalSlotDoc>().cursor({ batchSize: BATCH });
  for await (const slot of slots as AsyncIterable<JournalSlotDoc>) slotOf.set(slot.n, { entryId: slot.entry._id, writtenAt: slot.writtenAt });
  const findings: JournalFindings = { entries: 0, unslotted: [], differences: [] };
  for (let n = 1; n <= slotOf.size; n++) if (!slotOf.has(n)) noteDifference(findings.differences, `journal: slot ${n} is missing (the chain has a gap)`);
  const stored = new Set<string>();
  for await (const entry of entriesInOrder<Pick<LedgerEntryDoc, '_id' | 'seq'>>({ _id: 1, seq: 1 })) {
    findings.entries += 1;
    stored.add(entry._id);
    const slot = entry.seq === undefined ? undefined : slotOf.get(entry.seq);
    if (!slot || slot.entryId !== entry._id) {
      findings.unslotted.push(entry._id);
      noteDifference(findings.differences, `${entry._id}: ${entry.seq === undefined ? 'in no journal slot' : `its slot ${entry.seq} holds another entry`}`);
    }
  }
  const now = Date.now();
  for (const [n, slot] of slotOf) {
    if (!stored.has(slot.entryId) && now - new Date(slot.writtenAt).getTime() >= JOURNAL_GRACE_MS)
      noteDifference(findings.differences, `journal slot ${n}: its entry ${slot.entryId} is missing past the grace period (not completed yet)`);
  }
  return findings;
}

export const ledgerJournalState: KeptState = {
  name: 'ledger-journal',
  describe: 'The ledger journal: every ledger entry in exactly one live numbered slot (its seq), rebuilt by appending the entries that have none.',
  async check() {
    const findings = await examineJournal();
    return { checked: findings.entries, differences: findings.differences };
  },
  /**
   * Appends a slot for each entry that has no live one (written outside `post`: the large seed, a database from
   * before the journal), in the ledger's order, and sets their `seq`. When the balances job had read the whole
   * journal, it is moved past these slots: their running totals come from the postings' rebuilds, run next.
   */
  async rebuild() {
    const findings = await examineJournal();
    const wanted = new Set(findings.unslotted);
    const missing = (async function* () {
      for await (const entry of entriesInOrder<LedgerEntryDoc>({})) if (wanted.has(entry._id)) yield entry;
    })();
    await appendSlots(missing, async (batch, firstN) => {
      await LedgerEntryModel.collection.bulkWrite(
        batch.map((entry, i) => ({ updateOne: { filter: { _id: entry._id }, update: { $set: { seq: firstN + i } } } })) as never[],
        { ordered: false },
      );
    });
    return { checked: findings.entries, differences: findings.differences };
  },
};

/**
 * Appends a slot for each of `entries` at the journal's end, in their order, calling `afterBatch` with each batch
 * and its first number. When the balances job had read the whole journal before, it is moved past the new slots:
 * their running totals come from the postings' rebuilds, run next, not from the job.
 */
async function appendSlots(
  entries: AsyncIterable<LedgerEntryDoc> | Iterable<LedgerEntryDoc>,
  afterBatch: (batch: LedgerEntryDoc[], firstN: number) => Promise<void>,
): Promise<number> {
  const end = await journalEnd();
  const consumerWasAtEnd = (await checkpointOf(LEDGER_BALANCES_CONSUMER)) === end;
  let next = end + 1;
  const writtenAt = new Date();
  await inBatches(entries, async (batch) => {
    await insertJournalSlots(next, batch, writtenAt);
    await afterBatch(batch, next);
    next += batch.length;
  });
  if (consumerWasAtEnd && next - 1 > end) await saveCheckpoint(LEDGER_BALANCES_CONSUMER, next - 1);
  forgetLedgerChains();
  return next - 1 - end;
}

/**
 * Stores entries of a bulk import (the large seed) with their journal slots, as `post` writes them one at a time:
 * numbered from the journal's end in the order given (which must be the ledger's), each slot before its entry.
 * Entries whose `_id` is taken are left as they are, and their slots stand for nothing (as the slot of a retried
 * post does). Answers how many entries were stored. Meant for a quiet database: the ledger-journal rebuild would
 * number entries stored without slots the same way, at the cost of an update of each.
 */
export async function storeImportedEntries(entries: Iterable<LedgerEntryDoc>): Promise<number> {
  let stored = 0;
  await appendSlots(entries, async (batch, firstN) => {
    const numbered = batch.map((entry, i) => ({ ...entry, seq: firstN + i }));
    try {
      stored += (await LedgerEntryModel.collection.insertMany(numbered as never[], { ordered: false })).insertedCount;
    } catch (err) {
      const places = duplicateKeyPlaces(err);
      if (!places) throw err;
      stored += batch.length - places.length;
    }
  });
  return stored;
}

// ---------------------------------------------------------------------------------------------------------------
// The running totals: chains of postings, one family per kept state.

interface ChainFamily {
  name: string;
  describe: string;
  /** The chains' prefix: `user:`, `piece:`, `knacked:`. */
  prefix: string;
}

/** What the entries say each chain of a family holds: per chain, the moves in the ledger's order. */
async function expectedMoves(prefix: string): Promise<{ entries: number; chains: Map<string, Map<string, ChainMove & { seq?: number }>> }> {
  const chains = new Map<string, Map<string, ChainMove & { seq?: number }>>();
  let entries = 0;
  for await (const entry of entriesInOrder<LedgerEntryDoc>(MOVE_FIELDS)) {
    entries += 1;
    for (const move of movesOf(entry)) {
      if (!move.chain.startsWith(prefix)) continue;
      let moves = chains.get(move.chain);
      if (!moves) chains.set(move.chain, (moves = new Map<string, ChainMove & { seq?: number }>()));
      moves.set(entry._id, { ...move, seq: entry.seq });
    }
  }
  return { entries, chains };
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ofFamily = (prefix: string) => ours({ _id: { $regex: `^${escapeRegex(prefix)}` } });

async function checkFamily(prefix: string): Promise<KeptStateReport> {
  const { chains } = await expectedMoves(prefix);
  const differences: string[] = [];
  const postings = new Map<string, PostingDoc[]>();
  const cursor = PostingModel.find(ofFamily(prefix)).lean<PostingDoc>().cursor({ batchSize: BATCH });
  for await (const posting of cursor as AsyncIterable<PostingDoc>) {
    const chain = posting._id.slice(0, posting._id.lastIndexOf('#'));
    let list = postings.get(chain);
    if (!list) postings.set(chain, (list = []));
    list.push(posting);
  }
  const heads = new Map<string, ChainHeadDoc>();
  for await (const head of ChainHeadModel.find(ofFamily(prefix)).lean<ChainHeadDoc>().cursor({ batchSize: BATCH }) as AsyncIterable<ChainHeadDoc>)
    heads.set(head._id, head);
  let checked = 0;
  for (const chain of new Set([...chains.keys(), ...postings.keys()])) {
    checked += 1;
    const expected = chains.get(chain) ?? new Map<string, ChainMove>();
    const list = (postings.get(chain) ?? []).sort((a, b) => a.n - b.n);
    const seen = new Set<string>();
    let total = 0;
    let maxAt = 0;
    list.forEach((posting, i) => {
      if (posting.n !== i + 1) noteDifference(differences, `${chain}: posting ${i + 1} is missing (the chain has a gap)`);
      total += posting.amountMicros;
      maxAt = Math.max(maxAt, new Date(posting.at).getTime());
      if (posting.maxAt && new Date(posting.maxAt).getTime() !== maxAt)
        noteDifference(
          differences,
          `${posting._id}: its latest time ${new Date(posting.maxAt).toISOString()} is not its postings' (${new Date(maxAt).toISOString()})`,
        );
      if (posting.totalMicros !== total) noteDifference(differences, `${posting._id}: total ${posting.totalMicros}, its postings sum to ${total}`);
      const move = expected.get(posting.entryId);
      if (!move) noteDifference(differences, `${posting._id}: entry ${posting.entryId} does not move ${chain}`);
      else if (move.amountMicros !== posting.amountMicros)
        noteDifference(differences, `${posting._id}: moves ${posting.amountMicros}, its entry ${move.amountMicros}`);
      if (seen.has(posting.entryId)) noteDifference(differences, `${posting._id}: entry ${posting.entryId} posted twice on ${chain}`);
      seen.add(posting.entryId);
    });
    for (const entryId of expected.keys()) if (!seen.has(entryId)) noteDifference(differences, `${chain}: entry ${entryId} not posted`);
    const sum = [...expected.values()].reduce((s, move) => s + move.amountMicros, 0);
    if (total !== sum) noteDifference(differences, `${chain}: ends at ${total}, its entries sum to ${sum}`);
    const head = heads.get(chain);
    if (!head && list.length) noteDifference(differences, `${chain}: has postings but no head hint (the payouts find members by their heads)`);
    if (head && (head.n > list.length || (head.n > 0 && head.totalMicros !== list[head.n - 1]?.totalMicros)))
      noteDifference(differences, `${chain}: its head hint (${head.n}, ${head.totalMicros}) is not one of its postings`);
    const snapshot = heads.get(listId(chain));
    if (snapshot) {
      const firstPieces = list.slice(0, snapshot.n).map((posting) => posting.contentId);
      if (snapshot.n > list.length || JSON.stringify(snapshot.contentIds ?? []) !== JSON.stringify(firstPieces))
        noteDifference(differences, `${chain}: its kept list (as of ${snapshot.n}) is not its first postings' pieces`);
    }
  }
  return { checked, differences };
}

/**
 * Rebuilds a family's chains from the entries: its postings, hints, snapshots and claims deleted, then written again
 * from the entries in the ledger's order. Claims are written only for the entries the balances job has still to
 * read (after its checkpoint), which it would otherwise take for never posted.
 */
async function rebuildFamily(prefix: string, { compare = true }: RebuildOptions = {}): Promise<KeptStateReport> {
  const report = compare ? await checkFamily(prefix) : null;
  await Promise.all([PostingModel, PostingClaimModel, ChainHeadModel].map((m) => m.collection.deleteMany(ofFamily(prefix) as never)));
  forgetLedgerChains();
  const checkpoint = await checkpointOf(LEDGER_BALANCES_CONSUMER);
  const ends = new Map<string, { n: number; totalMicros: number; uploadsMicros: number; paidOutMicros: number; maxAt: Date; contentIds?: string[] }>();
  const isUser = prefix === 'user:';
  // Only the knacked pieces keep a snapshot of their list (sign-in reads it whole); other chains with pieces are paged.
  const keepsList = prefix === 'knacked:';
  const postings = (async function* () {
    for await (const entry of entriesInOrder<LedgerEntryDoc>(MOVE_FIELDS)) {
      for (const move of movesOf(entry)) {
        if (!move.chain.startsWith(prefix)) continue;
        const end = ends.get(move.chain) ?? {
          n: 0,
          totalMicros: 0,
          uploadsMicros: 0,
          paidOutMicros: 0,
          maxAt: entry.at,
          ...(keepsList ? { contentIds: [] } : {}),
        };
        end.n += 1;
        if (entry.at.getTime() > end.maxAt.getTime()) end.maxAt = entry.at;
        end.totalMicros += move.amountMicros;
        end.uploadsMicros += move.uploadsMicros;
        end.paidOutMicros += move.paidOutMicros;
        if (keepsList && move.contentId) end.contentIds!.push(move.contentId);
        ends.set(move.chain, end);
        const posting: PostingDoc = {
          _id: postingId(move.chain, end.n),
          n: end.n,
          entryId: entry._id,
          kind: entry.kind,
          at: entry.at,
          amountMicros: move.amountMicros,
          totalMicros: end.totalMicros,
          maxAt: end.maxAt,
          ...(isUser ? { uploadsMicros: end.uploadsMicros, paidOutMicros: end.paidOutMicros } : {}),
          ...(move.contentId ? { contentId: move.contentId } : {}),
        };
        const claim =
          entry.seq !== undefined && entry.seq > checkpoint ? { _id: claimId(move.chain, entry._id), after: end.n - 1, n: end.n, at: new Date() } : null;
        yield { posting, claim };
      }
    }
  })();
  await inBatches(postings, async (batch) => {
    await PostingModel.collection.insertMany(batch.map((item) => item.posting) as never[], { ordered: false });
    const claims = batch.flatMap((item) => (item.claim ? [item.claim] : []));
    if (claims.length) await PostingClaimModel.collection.insertMany(claims as never[], { ordered: false });
  });
  const heads = (function* () {
    for (const [chain, end] of ends) {
      const { contentIds, uploadsMicros, paidOutMicros, ...totals } = end;
      yield { _id: chain, ...totals, ...(isUser ? { uploadsMicros, paidOutMicros } : {}) };
      if (contentIds) yield { _id: listId(chain), n: end.n, contentIds };
    }
  })();
  await inBatches([...heads], async (batch) => void (await ChainHeadModel.collection.insertMany(batch as never[], { ordered: false })));
  forgetLedgerChains();
  return report ?? { checked: ends.size, differences: [] };
}

const family = ({ name, describe, prefix }: ChainFamily): KeptState => ({
  name,
  describe,
  check: () => checkFamily(prefix),
  rebuild: (options) => rebuildFamily(prefix, options),
});

export const ledgerBalancesState = family({
  name: 'ledger-balances',
  describe: "Members' running balances: a chain of postings per user account (each the balance after it), rebuilt from the entries' legs.",
  prefix: 'user:',
});
export const pieceEarningsState = family({
  name: 'piece-earnings',
  describe: "Pieces' running earnings: a chain of postings per piece (what its knacks credited in all), rebuilt from the knack entries.",
  prefix: 'piece:',
});
export const reactedPiecesState = family({
  name: 'reacted-pieces',
  describe: "Members' knacked pieces: a chain per member with a kept snapshot of the list, rebuilt from the knack entries.",
  prefix: 'knacked:',
});

export const listingFeesPaidState = family({
  name: 'listing-fees-paid',
  describe: "Members' fees paid: a chain per payer of their listing and relisting fees and card refunds (the total the fees), rebuilt from those entries.",
  prefix: 'paid:',
});

export const ledgerKeptStates: KeptState[] = [ledgerJournalState, ledgerBalancesState, pieceEarningsState, reactedPiecesState, listingFeesPaidState];
