/**
 * The listing fee (spec §1, §9): its tier, what it costs, the credits that cover it, and monetizing a piece
 * once: the ledger entry `listing:{contentId}` is the gate (its unique `_id`), the piece's `isPaidOut` and
 * `payerId` follow it.
 */
import { Types } from 'mongoose';
import { withLock } from '../../lib/mutex';
import { ours } from '../../lib/query';
import type { ContentDoc } from '../contents';
import { post, type LedgerEntryDoc } from '../ledger';
import { UserExtModel } from '../users';

export type Tier = 'standard' | 'premium';
export type ListingMethod = NonNullable<LedgerEntryDoc['method']>;

/** A piece whose knack is worth at least $0.99 lists at the premium fee. */
export const PREMIUM_KNACK_MICROS = 990_000;
export const LISTING_FEES: Record<Tier, number> = { standard: 650_000, premium: 12_400_000 };
export const PLATFORM_FEES = 'platform:fees';

/** Where the fee's money comes from, per method (ledger/ledger.model.ts lists the accounts). */
const SOURCE_ACCOUNT: Record<ListingMethod, string> = {
  card: 'external:payments',
  discount: 'platform:discounts',
  'standard-credit': 'platform:credits',
  'premium-credit': 'platform:credits',
};
const CREDIT_FIELD = { standard: 'sCredit', premium: 'pCredit' } as const;
const CREDIT_LOCK = { busyMessage: 'Another payment of yours is in progress. Please try again.' };

export const tierOf = (content: Pick<ContentDoc, 'knackRateMicros'>): Tier => (content.knackRateMicros >= PREMIUM_KNACK_MICROS ? 'premium' : 'standard');
export const creditMethod = (tier: Tier) => `${tier}-credit` as const;
export const listingKey = (contentId: unknown) => `listing:${String(contentId)}`;

/** The member's credits of the tier (0 without a user extension). */
export async function creditsLeft(userId: string, tier: Tier): Promise<number> {
  const ext = await UserExtModel.findOne({ userId: new Types.ObjectId(userId) }, { [CREDIT_FIELD[tier]]: 1 }).lean();
  return ext?.[CREDIT_FIELD[tier]] ?? 0;
}

/**
 * Uses one credit of the tier, never going below 0; false when there is none. Exact because of the lock
 * (lib/mutex.ts says why); the user extension's `_id` is not the user id, so this finds it by `userId`.
 */
export function takeCredit(userId: string, tier: Tier): Promise<boolean> {
  const field = CREDIT_FIELD[tier];
  return withLock(
    `credit:${userId}`,
    async () => {
      const taken = await UserExtModel.findOneAndUpdate(ours({ userId: new Types.ObjectId(userId), [field]: { $gt: 0 } }), { $inc: { [field]: -1 } }).lean();
      return Boolean(taken);
    },
    CREDIT_LOCK,
  );
}

export function giveCreditBack(userId: string, tier: Tier): Promise<void> {
  return withLock(
    `credit:${userId}`,
    async () => {
      await UserExtModel.updateOne({ userId: new Types.ObjectId(userId) }, { $inc: { [CREDIT_FIELD[tier]]: 1 } });
    },
    CREDIT_LOCK,
  );
}

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
