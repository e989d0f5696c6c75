/**
 * What listing a piece costs, by tier, in micro-dollars: a piece whose knack is worth at least $0.99 lists at
 * the premium fee. Shared by the fee itself (payments) and the plans, whose credits each pay one such fee.
 */
export type Tier = 'standard' | 'premium';
export const LISTING_FEES: Record<Tier, number> = { standard: 650_000, premium: 12_400_000 };

/** A piece whose knack is worth at least $0.99 lists at the premium fee. */
export const PREMIUM_KNACK_MICROS = 990_000;
