/**
 * The pieces a listing fee monetized, marked paid out by the fee's payer: the payment marks its piece right after
 * posting the fee, and the listing-repairs job marks any piece whose listing entry is in the ledger but which is not
 * marked (a payment stopped between the two steps). The job reads the listings from the ledger's journal since its
 * last run (the `listing-repairs` consumer), so its work grows with the payments made, not with the ledger.
 *
 * As a kept state (lib/kept-state.ts), the marks are checked against every listing entry of the ledger.
 */
import type { Types } from 'mongoose';
import { comparedState, type KeptStateReport, noteDifference } from '../../lib/kept-state';
import { contentReads, markPaidOut, type ContentDoc } from '../contents';
import { entriesOfKind, type LedgerEntryDoc } from '../ledger';

/** The journal consumer of the listing-repairs job (its checkpoint and its lease). */
export const LISTING_REPAIRS = 'listing-repairs';
export const LISTING_REPAIRS_LEASE_MS = 10 * 60_000;

type Listing = Pick<LedgerEntryDoc, 'contentId' | 'actorId'>;

/** The pieces of `listings` not marked paid out yet (read by `_id`). */
async function unmarkedOf(listings: Listing[]): Promise<Listing[]> {
  const named = listings.filter((entry): entry is Listing & { contentId: Types.ObjectId } => Boolean(entry.contentId && entry.actorId));
  const pieces = await Promise.all(named.map((entry) => contentReads.byId<Pick<ContentDoc, '_id' | 'isPaidOut'>>(String(entry.contentId), { isPaidOut: 1 })));
  return named.filter((_, i) => pieces[i] && !pieces[i].isPaidOut);
}

/** Marks each listing's piece paid out by its payer unless it is already (safe to repeat); answers how many it marked. */
export async function markListed(listings: Listing[]): Promise<number> {
  const unmarked = await unmarkedOf(listings);
  for (const entry of unmarked) await markPaidOut(entry.contentId!, String(entry.actorId));
  return unmarked.length;
}

/** Every listing entry of the ledger (a scan: the check and the rebuild only), and its piece's mark. */
async function recountMarks(writeAll: boolean): Promise<KeptStateReport> {
  const listings = await entriesOfKind('listing', { contentId: 1, actorId: 1 });
  const unmarked = await unmarkedOf(listings);
  const differences: string[] = [];
  for (const entry of unmarked) noteDifference(differences, `piece ${String(entry.contentId)}: its listing is in the ledger, the piece is not marked paid out`);
  if (writeAll) for (const entry of unmarked) await markPaidOut(entry.contentId!, String(entry.actorId));
  return { checked: listings.length, differences };
}

export const listingMarksState = comparedState(
  'listing-marks',
  "Each piece whose listing fee is in the ledger marked paid out by its payer (contents' isPaidOut), checked against every listing entry.",
  recountMarks,
);
