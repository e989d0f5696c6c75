/** Who knacked what, from the ledger's knack entries (sign-in, the feeds and the knack path ask). */
import { entriesBy, entriesOfKind, entryExists } from './ledger';
import type { LedgerEntryDoc } from './ledger.model';

/** The ledger key of a member's knack on a piece: at most one per member per piece. */
export const knackKey = (contentId: unknown, userId: unknown) => `knack:${String(contentId)}:${String(userId)}`;

/** The pieces a member has knacked (the auth answers' `reacted_contents`). */
export async function reactedContentIds(userId: string): Promise<string[]> {
  const entries = await entriesBy('knack', userId, { contentId: 1 });
  return entries.map((entry) => String(entry.contentId));
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
