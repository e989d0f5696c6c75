/** Who knacked what, from the ledger's knack entries (sign-in, the feeds and the knack path ask). */
import { keepHint, readById } from '../../lib/query';
import { entriesOfKind, entryExists } from './ledger';
import { ChainHeadModel, knackedChain, listId, postingsOf, type ChainHeadDoc } from './ledger.postings';
import type { LedgerEntryDoc } from './ledger.model';

/** The ledger key of a member's knack on a piece: at most one per member per piece. */
export const knackKey = (contentId: unknown, userId: unknown) => `knack:${String(contentId)}:${String(userId)}`;

/** How many postings of a member's knacked list are read per round (in parallel, by `_id`). */
const TAIL_PAGE = 16;

/**
 * The pieces a member has knacked (the auth answers' `reacted_contents`), in the order they were knacked: the kept
 * snapshot of their list (ledger.postings.ts: `knacked:{userId}|list`, as of posting k) and the postings after k,
 * read by `_id` until a number is missing. The snapshot is written again once the tail grows (best-effort: a lost
 * or late write only makes the next reader read a longer tail), so a sign-in reads a bounded number of documents.
 */
export async function reactedContentIds(userId: string): Promise<string[]> {
  const chain = knackedChain(userId);
  const snapshot = await readById<ChainHeadDoc>(ChainHeadModel, listId(chain));
  const pieces = [...(snapshot?.contentIds ?? [])];
  const from = snapshot?.n ?? 0;
  let n = from;
  // One read first: most sign-ins find the snapshot whole (no tail), and read two documents in all.
  for (let size = 1; ; size = TAIL_PAGE) {
    const page = await postingsOf(chain, n + 1, n + size);
    for (const posting of page) pieces.push(String(posting.contentId));
    n += page.length;
    if (page.length < size) break;
  }
  if (n - from >= TAIL_PAGE) {
    await keepHint(ChainHeadModel, listId(chain), { n, contentIds: pieces });
  }
  return pieces;
}

/**
 * Every knack there is, as (piece, time, journal number): the facts the feeds' counts are recounted from. The number
 * lets a recount stop at a journal checkpoint, so that the rankings job goes on from there without counting twice.
 */
export async function knackFacts(): Promise<Pick<LedgerEntryDoc, 'contentId' | 'at' | 'seq'>[]> {
  return entriesOfKind('knack', { _id: 0, contentId: 1, at: 1, seq: 1 });
}

/** Whether a member has knacked a piece. */
export async function hasKnacked(contentId: unknown, userId: string): Promise<boolean> {
  return entryExists(knackKey(contentId, userId));
}

export type KnackStatus = 0 | 1 | 2 | 3;

/** A piece's knack status for a viewer: 3 their own; 0 not paid out; 2 already knacked; 1 they may knack it. */
export function knackStatusOf(content: { ownerId: unknown; isPaidOut: boolean }, viewerId: string | undefined, reacted: boolean): KnackStatus {
  if (viewerId && String(content.ownerId) === viewerId) return 3;
  if (!content.isPaidOut) return 0;
  return reacted ? 2 : 1;
}
