/**
 * The listing fee: its tier, what it costs, the credits that cover it, and monetizing a piece once: the
 * ledger entry `listing:{contentId}` is the gate (its unique `_id`), the piece's `isPaidOut` and `payerId`
 * follow it. A card payment that came after another had monetized the piece is paid back: `refund:{orderId}`.
 */
import { Types } from 'mongoose';
import type { ContentDoc } from '../contents';
import { LISTING_FEES, PREMIUM_KNACK_MICROS, type Tier } from '../../lib/listing-fees';
import { post, type LedgerEntryDoc } from '../ledger';

export { LISTING_FEES, PREMIUM_KNACK_MICROS, type Tier };

export type ListingMethod = NonNullable<LedgerEntryDoc['method']>;

export const PLATFORM_FEES = 'platform:fees';
const EXTERNAL_PAYMENTS = 'external:payments';
const EXTERNAL_REFUNDS = 'external:refunds';

/** Where the fee's money comes from, per method (ledger/ledger.model.ts lists the accounts). */
const SOURCE_ACCOUNT: Record<ListingMethod, string> = {
  card: EXTERNAL_PAYMENTS,
  discount: 'platform:discounts',
  'standard-credit': 'platform:credits',
  'premium-credit': 'platform:credits',
};

export const tierOf = (content: Pick<ContentDoc, 'knackRateMicros'>): Tier => (content.knackRateMicros >= PREMIUM_KNACK_MICROS ? 'premium' : 'standard');
export const creditMethod = (tier: Tier) => `${tier}-credit` as const;
export const listingKey = (contentId: unknown) => `listing:${String(contentId)}`;
export const refundKey = (orderId: string) => `refund:${orderId}`;
export const relistingKey = (soldBidId: string) => `relisting:${soldBidId}`;

/**
 * The smallest fee a card checkout takes (card providers refuse smaller charges: Stripe's minimum is $0.50): a
 * relisting fee under it is waived rather than rounded up.
 */
export const CARD_MINIMUM_MICROS = 500_000;
/** What a fee that may be waived charges: itself, or nothing under the card minimum. */
export const waivableFee = (feeMicros: number) => (feeMicros < CARD_MINIMUM_MICROS ? 0 : feeMicros);

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

/**
 * Posts the fee that opens a sold piece to bids again; `created` is false when that sale's relisting is posted
 * already. A waived fee (0, under the card minimum) moves no money: the entry only records that bidding is open.
 */
export function postRelisting(soldBidId: string, contentId: Types.ObjectId, payerId: string, feeMicros: number, ref: string | null, at = new Date()) {
  return post({
    _id: relistingKey(soldBidId),
    kind: 'relisting',
    at,
    actorId: new Types.ObjectId(payerId),
    contentId,
    method: feeMicros > 0 ? 'card' : null,
    amountMicros: feeMicros,
    ref,
    legs:
      feeMicros > 0
        ? [
            { account: EXTERNAL_PAYMENTS, amountMicros: -feeMicros },
            { account: PLATFORM_FEES, amountMicros: feeMicros },
          ]
        : [],
  });
}

/**
 * Posts the refund of a card payment for a piece that was monetized by another payment first: the money that came
 * in from the provider went back out through it. Once per order (`created` is false for a repeat).
 */
export function postRefund(order: { _id: string; userId: Types.ObjectId; contentId: Types.ObjectId; amountMicros: number }, refundId: string, at = new Date()) {
  return post({
    _id: refundKey(order._id),
    kind: 'refund',
    at,
    actorId: order.userId,
    contentId: order.contentId,
    method: 'card',
    amountMicros: order.amountMicros,
    ref: refundId,
    legs: [
      { account: EXTERNAL_PAYMENTS, amountMicros: -order.amountMicros },
      { account: EXTERNAL_REFUNDS, amountMicros: order.amountMicros },
    ],
  });
}
