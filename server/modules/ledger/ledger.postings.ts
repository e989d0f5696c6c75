/**
 * Running totals kept from the ledger's entries, each a numbered chain (lib/numbered-chain.ts) of postings in
 * `ledger_postings`, `{chain}#{n}`, one per entry that moves it, each holding the total after it, so that the chain's
 * last posting is the total: read by `_id`, exact, and bounded however long the history.
 *
 * The chains:
 * - `user:{id}`: a member's balance (each entry's legs on the account, summed); also the running part of it that
 *   came from knacks of their own pieces (`uploadsMicros`) and what left it as payouts and cash-outs (`paidOutMicros`);
 * - `piece:{contentId}`: what a piece's knacks have credited in all, owner and supporter together;
 * - `knacked:{userId}`: the pieces a member has knacked, one posting each (`contentId`), the total their count;
 * - `paid:{userId}`: the fees a member paid as the entry's actor, which move no balance of theirs (listing and
 *   relisting fees, and the refunds of card payments that came too late), one posting each (`contentId`), the total
 *   the listing and relisting fees paid (a refund's posting moves it by 0: the payment it returns never became a fee).
 *   Their history's Paid0 and Refund items page through it, and the wallet's collections figure counts from it.
 * Knack's own accounts (`platform:…`, `external:…`) have no chain: every knack moves `platform:knacks`, so one chain
 * would make every post wait for every other; only admins read them, and those reads still sum the ledger.
 *
 * Exactly once per (entry, chain): before its posting is appended, a claim `{chain}|{entryId}` is inserted in
 * `ledger_posting_claims` (the one exclusive step), holding the chain's end just before (`after`); once appended, the
 * claim is given the posting's number (`n`). Only the post that inserted the entry claims at once; the
 * `ledger-balances` job (a journal consumer, ledger.balances-job.ts) later finds any claim missing (a crash between
 * the entry and its postings) or left without its number (a crash between the claim and the posting), and finishes it.
 * A writer stalled longer than the journal's grace period between its claim and its posting could still append after
 * the job did; the `ledger-balances` kept state's check reports such a twin posting.
 *
 * `ledger_heads` keeps, per chain, a hint of its end (`{chain}`: a number and its total, written after each append,
 * best-effort: a lost or late write leaves it behind, never ahead), so that a reader goes from the hint forward by `_id`
 * until a number is missing; and per member a snapshot of their knacked pieces (`{chain}|list`).
 */
import { Schema, model } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { inTurn } from '../../lib/in-turn';
import { numberedChains, type ChainEnd } from '../../lib/numbered-chain';
import { insertWhole, keepHint, readById } from '../../lib/query';
import type { LedgerEntryDoc } from './ledger.model';

export interface PostingDoc {
  /** `{chain}#{n}`. */
  _id: string;
  n: number;
  entryId: string;
  kind: LedgerEntryDoc['kind'];
  at: Date;
  /** What this entry moved on the chain. */
  amountMicros: number;
  /** The chain's total after this posting (a balance, a piece's earnings, a count of knacked pieces). */
  totalMicros: number;
  /**
   * The latest `at` of postings 1..n: a reader walking a chain down from its newest numbers (a member's history) knows
   * that nothing below this posting is newer, though appends at once may land a little out of `at` order. Absent on
   * postings written before it was kept.
   */
  maxAt?: Date;
  /** `user:` chains: running totals of the knacks of the member's own pieces, and of their payouts and cash-outs. */
  uploadsMicros?: number;
  paidOutMicros?: number;
  /** `knacked:` chains: the piece knacked; `paid:` chains: the piece whose fee it is. */
  contentId?: string;
}

const postingSchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
    entryId: { type: String, required: true },
    kind: { type: String, required: true },
    at: { type: Date, required: true },
    amountMicros: { type: Number, required: true },
    totalMicros: { type: Number, required: true },
    maxAt: { type: Date, default: undefined },
    uploadsMicros: { type: Number, default: undefined },
    paidOutMicros: { type: Number, default: undefined },
    contentId: { type: String, default: undefined },
  },
  { versionKey: false },
);
export const PostingModel = model<PostingDoc>('LedgerPosting', postingSchema, 'ledger_postings');

export interface PostingClaimDoc {
  /** `{chain}|{entryId}`. */
  _id: string;
  /** The chain's last number seen just before the claim: the posting, once appended, comes after it. */
  after: number;
  /** The posting's number, once appended (null until then, or when that write was lost). */
  n: number | null;
  at: Date;
}
const postingClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    after: { type: Number, required: true },
    n: { type: Number, default: null },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
export const PostingClaimModel = model<PostingClaimDoc>('LedgerPostingClaim', postingClaimSchema, 'ledger_posting_claims');

/** A chain's end hint (`{chain}`), or a member's knacked-pieces snapshot (`{chain}|list`). */
export interface ChainHeadDoc {
  _id: string;
  n: number;
  totalMicros?: number;
  uploadsMicros?: number;
  paidOutMicros?: number;
  /** The chain's posting n's `maxAt`. */
  maxAt?: Date;
  /** Snapshots: the pieces of postings 1..n, in order. */
  contentIds?: string[];
}
const chainHeadSchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
    totalMicros: { type: Number, default: undefined },
    uploadsMicros: { type: Number, default: undefined },
    paidOutMicros: { type: Number, default: undefined },
    maxAt: { type: Date, default: undefined },
    contentIds: { type: [String], default: undefined },
  },
  { versionKey: false },
);
export const ChainHeadModel = model<ChainHeadDoc>('LedgerChainHead', chainHeadSchema, 'ledger_heads');

interface Totals {
  totalMicros: number;
  uploadsMicros: number;
  paidOutMicros: number;
}
const TOTALS_PROJECTION = { totalMicros: 1, uploadsMicros: 1, paidOutMicros: 1, maxAt: 1, at: 1 } as const;

/** What a process remembers of a chain's last posting: its totals and how late its postings go. */
type ChainTail = Partial<Totals> & { maxAt?: Date; at?: Date };

/** The `maxAt` of a posting at `at` after `previous` (whose own may be missing on postings older than the field). */
const maxAtAfter = (previous: ChainTail | null, at: Date): Date => {
  const before = previous?.maxAt ?? previous?.at;
  return before && new Date(before).getTime() > new Date(at).getTime() ? new Date(before) : new Date(at);
};

const totalsOf = (doc: Partial<Totals> | null): Totals => ({
  totalMicros: doc?.totalMicros ?? 0,
  uploadsMicros: doc?.uploadsMicros ?? 0,
  paidOutMicros: doc?.paidOutMicros ?? 0,
});

const chains = numberedChains<ChainTail>(PostingModel, {
  separator: '#',
  projection: TOTALS_PROJECTION,
  hint: async (chain) => {
    const head = await readById<ChainHeadDoc>(ChainHeadModel, chain);
    return head && head.n > 0 ? { n: head.n, doc: { ...totalsOf(head), ...(head.maxAt ? { maxAt: head.maxAt } : {}) } } : null;
  },
});

export const postingId = (chain: string, n: number) => chains.idOf(chain, n);
/** Posting `n` of a chain, or null. */
export const readPosting = (chain: string, n: number) => readById<PostingDoc>(PostingModel, postingId(chain, n));
export const claimId = (chain: string, entryId: string) => `${chain}|${entryId}`;
export const pieceChain = (contentId: unknown) => `piece:${String(contentId)}`;
export const knackedChain = (userId: unknown) => `knacked:${String(userId)}`;
export const paidChain = (userId: unknown) => `paid:${String(userId)}`;
export const listId = (chain: string) => `${chain}|list`;

/** What one entry moves on one chain. */
export interface ChainMove {
  chain: string;
  amountMicros: number;
  uploadsMicros: number;
  paidOutMicros: number;
  contentId?: string;
}

/** The kinds whose actor paid a fee that moves no balance of theirs: one posting each on the actor's `paid:` chain. */
export const PAID_KINDS: readonly LedgerEntryDoc['kind'][] = ['listing', 'relisting', 'refund'];

/**
 * The chains an entry moves and by how much: each member account on its legs (summed per account); a knack's piece
 * (what it credited in all) and its maker's knacked pieces; a fee's payer (listing, relisting, refund). A knack's owner
 * is its second leg, as knackLegs builds them (Knack's account, the owner, then the supporter), so the owner's share
 * counts as earned on their own piece.
 */
export function movesOf(entry: Pick<LedgerEntryDoc, 'kind' | 'legs' | 'contentId' | 'actorId' | 'currency' | 'amountMicros'>): ChainMove[] {
  const moves = new Map<string, ChainMove>();
  if (!entry.currency) {
    entry.legs.forEach((leg, i) => {
      if (!leg.account.startsWith('user:')) return;
      const move = moves.get(leg.account) ?? { chain: leg.account, amountMicros: 0, uploadsMicros: 0, paidOutMicros: 0 };
      move.amountMicros += leg.amountMicros;
      if (entry.kind === 'knack' && i === 1) move.uploadsMicros += leg.amountMicros;
      if (entry.kind === 'payout' || entry.kind === 'cash-out') move.paidOutMicros -= leg.amountMicros;
      moves.set(leg.account, move);
    });
  }
  const list = [...moves.values()];
  if (entry.kind === 'knack' && entry.contentId) {
    const credited = entry.legs.reduce((sum, leg) => sum + Math.max(0, leg.amountMicros), 0);
    list.push({ chain: pieceChain(entry.contentId), amountMicros: credited, uploadsMicros: 0, paidOutMicros: 0 });
    list.push({ chain: knackedChain(entry.actorId), amountMicros: 1, uploadsMicros: 0, paidOutMicros: 0, contentId: String(entry.contentId) });
  }
  if (PAID_KINDS.includes(entry.kind) && !entry.currency) {
    const fee = entry.kind === 'refund' ? 0 : (entry.amountMicros ?? 0);
    list.push({ chain: paidChain(entry.actorId), amountMicros: fee, uploadsMicros: 0, paidOutMicros: 0, contentId: String(entry.contentId) });
  }
  return list;
}

/** Appends the posting of `move` for `entry` to its chain and keeps the head hint (the claim is already held). */
async function appendPosting(entry: Pick<LedgerEntryDoc, '_id' | 'kind' | 'at'>, move: ChainMove): Promise<number> {
  const { n, doc } = await chains.append(move.chain, (n, previous) => {
    const before = totalsOf(previous.doc);
    return {
      n,
      entryId: entry._id,
      kind: entry.kind,
      at: entry.at,
      amountMicros: move.amountMicros,
      totalMicros: before.totalMicros + move.amountMicros,
      maxAt: maxAtAfter(previous.doc, entry.at),
      ...(move.chain.startsWith('user:')
        ? { uploadsMicros: before.uploadsMicros + move.uploadsMicros, paidOutMicros: before.paidOutMicros + move.paidOutMicros }
        : {}),
      ...(move.contentId ? { contentId: move.contentId } : {}),
    };
  });
  await Promise.all([
    PostingClaimModel.collection.updateOne({ _id: claimId(move.chain, entry._id) as never }, { $set: { n } }),
    keepHint(ChainHeadModel, move.chain, { n, ...totalsOf(doc), maxAt: doc.maxAt }),
  ]);
  return n;
}

/**
 * Claims and appends one move of an entry: false when the claim was already taken (another writer has it, or had).
 * Appends of one chain go one at a time in a process (lib/in-turn.ts), so that a popular owner's many knacks at
 * once do not race each other for every next number.
 */
export function postMove(entry: Pick<LedgerEntryDoc, '_id' | 'kind' | 'at'>, move: ChainMove): Promise<boolean> {
  return inTurn(`ledger-chain:${move.chain}`, async () => {
    const after = (await chains.end(move.chain, true)).n;
    try {
      await insertWhole(PostingClaimModel, { _id: claimId(move.chain, entry._id), after, n: null, at: new Date() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return false;
    }
    faultPoint(FAULT_POINTS.ledgerAfterClaim);
    await appendPosting(entry, move);
    return true;
  });
}

/** Posts every move of an entry just inserted (post's last step). */
export async function postMoves(entry: LedgerEntryDoc): Promise<void> {
  await Promise.all(movesOf(entry).map((move) => postMove(entry, move)));
}

/** What the check of one move of an entry found. */
// 'posted', 'appended', or a line saying what is wrong.
export type MoveCheck = string;

/**
 * The `ledger-balances` job's step for one move of an entry: a move never claimed is claimed and appended; a claim
 * without its posting gets it; a posting found is checked against the entry and the posting before it. Answers
 * 'posted', 'appended', or a line saying what is wrong.
 */
export async function settleMove(entry: Pick<LedgerEntryDoc, '_id' | 'kind' | 'at'>, move: ChainMove): Promise<MoveCheck> {
  const claim = await readById<PostingClaimDoc>(PostingClaimModel, claimId(move.chain, entry._id));
  if (!claim) return (await postMove(entry, move)) ? 'appended' : settleMove(entry, move);
  let n = claim.n;
  const finishedHere = n === null;
  if (n === null) {
    // The claim's posting, if it was appended, is after `after`: read forward to the chain's end.
    for (let k = claim.after + 1; ; k++) {
      const posting = await readPosting(move.chain, k);
      if (!posting) break;
      if (posting.entryId === entry._id) {
        n = k;
        break;
      }
    }
    if (n === null) {
      await inTurn(`ledger-chain:${move.chain}`, () => appendPosting(entry, move));
      return 'appended';
    }
    await PostingClaimModel.collection.updateOne({ _id: claim._id as never }, { $set: { n } });
  }
  const [posting, previous] = await Promise.all([readPosting(move.chain, n), n > 1 ? readPosting(move.chain, n - 1) : Promise.resolve(null)]);
  // A process stopped between an append and its hint can leave a chain without a head (when it was the first posting,
  // or no later one came), and the payouts find the members by their heads (ledger.ts memberBalancesFrom): the job
  // writes a missing one, never over one that exists.
  if ((finishedHere || n === 1) && posting && !(await readById(ChainHeadModel, move.chain, { _id: 1 })))
    await keepHint(ChainHeadModel, move.chain, { n, ...totalsOf(posting), maxAt: posting.maxAt ?? posting.at });
  const where = `${postingId(move.chain, n)} (${entry._id})`;
  if (!posting || posting.entryId !== entry._id) return `${where}: the claim names a posting of another entry`;
  if (posting.amountMicros !== move.amountMicros) return `${where}: moves ${posting.amountMicros}, the entry ${move.amountMicros}`;
  const expected = totalsOf(previous).totalMicros + move.amountMicros;
  if (posting.totalMicros !== expected) return `${where}: total ${posting.totalMicros}, the posting before plus this one ${expected}`;
  return 'posted';
}

/** A chain's last posting's totals (all 0 for none): from the head hint forward, by `_id`. */
export async function chainTotals(chain: string): Promise<Totals & { n: number }> {
  const end: ChainEnd<ChainTail> = await chains.end(chain, true);
  return { n: end.n, ...totalsOf(end.doc) };
}

/** Postings `from`..`to` of a chain (both included; those missing are left out), read by `_id` in parallel. */
export async function postingsOf(chain: string, from: number, to: number): Promise<PostingDoc[]> {
  if (to < from) return [];
  const read = await Promise.all(Array.from({ length: to - from + 1 }, (_, i) => readPosting(chain, from + i)));
  return read.filter((posting): posting is PostingDoc => posting !== null);
}

/**
 * The pieces whose listing fee the member paid, from their `paid:` chain (one posting per fee), read by `_id` a hundred
 * at a time: their own fees, never a pass over the ledger.
 */
export async function piecesListedBy(userId: string): Promise<string[]> {
  const chain = paidChain(userId);
  const { n } = await chainTotals(chain);
  const pieces: string[] = [];
  for (let from = 1; from <= n; from += 100) {
    for (const posting of await postingsOf(chain, from, Math.min(n, from + 99))) {
      if (posting.kind === 'listing' && posting.contentId) pieces.push(posting.contentId);
    }
  }
  return pieces;
}

/** Forgets the chains' ends this process remembers (tests that empty the collections). */
export const forgetPostingChains = () => chains.forget();
