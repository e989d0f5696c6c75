/**
 * The listing fee: its tier, what it costs, the credits that cover it, and monetizing a piece once: the
 * ledger entry `listing:{contentId}` is the gate (its unique `_id`), the piece's `isPaidOut` and `payerId`
 * follow it.
 */
import { Types } from 'mongoose';
import type { ContentDoc } from '../contents';
import { LISTING_FEES, PREMIUM_KNACK_MICROS, type Tier } from '../../lib/listing-fees';
import { post, type LedgerEntryDoc } from '../ledger';

export { LISTING_FEES, PREMIUM_KNACK_MICROS, type Tier };

export type ListingMethod = NonNullable<LedgerEntryDoc['method']>;

export const PLATFORM_FEES = 'platform:fees';

/** Where the fee's money comes from, per method (ledger/ledger.model.ts lists the accounts). */
const SOURCE_ACCOUNT: Record<ListingMethod, string> = {
  card: 'external:payments',
  discount: 'platform:discounts',
  'standard-credit': 'platform:credits',
  'premium-credit': 'platform:credits',
};

export const tierOf = (content: Pick<ContentDoc, 'knackRateMicros'>): Tier => (content.knackRateMicros >= PREMIUM_KNACK_MICROS ? 'premium' : 'standard');
export const creditMethod = (tier: Tier) => `${tier}-credit` as const;
export const listingKey = (contentId: unknown) => `listing:${String(contentId)}`;

/** Posts the listing fee of a piece; `created` is false when the piece was monetized already (`entry` is that one). */
export function postListing(contentId: Types.ObjectId, payerId: string, method: ListingMethod, feeMicros: number, ref: string | null, at = new Date()) {
  return post({
    _id: listingKey(contentId),
    kind: 'listing',
    at,
    actorId: new Types.ObjectId(payerId),
    contentId,
    method,
    amountMicros: feeMicros,
    ref,
    legs: [
      { account: SOURCE_ACCOUNT[method], amountMicros: -feeMicros },
      { account: PLATFORM_FEES, amountMicros: feeMicros },
    ],
  });
}
