/**
 * Money is kept in integer micro-dollars (1 USD = 1 000 000); no floating-point arithmetic on amounts.
 * Dollars appear only at the edge (API figures, display).
 */
export const MICROS_PER_USD = 1_000_000;
const MICROS_PER_CENT = 10_000;

/** What a knack is worth when a tag has no price. */
export const DEFAULT_KNACK_PRICE_MICROS = 50_000;
/** The knack price shown is 8% of the tag price, truncated to cents. */
const KNACK_SHARE_PERCENT = 8;

export function usdToMicros(usd: number): number {
  const micros = Math.round(usd * MICROS_PER_USD);
  if (!Number.isSafeInteger(micros)) throw new RangeError(`Not a money amount: ${usd}`);
  return micros;
}

export function microsToUsd(micros: number): number {
  return micros / MICROS_PER_USD;
}

export function truncateToCents(micros: number): number {
  return Math.trunc(micros / MICROS_PER_CENT) * MICROS_PER_CENT;
}

export function knackPriceMicros(tagPriceMicros: number | null | undefined): number {
  if (!tagPriceMicros || tagPriceMicros <= 0) return DEFAULT_KNACK_PRICE_MICROS;
  return truncateToCents(Math.trunc((tagPriceMicros * KNACK_SHARE_PERCENT) / 100));
}

/** A tag price that shows the given knack price: the inverse of knackPriceMicros. */
export function tagPriceForKnackPrice(knackMicros: number): number {
  return Math.ceil((knackMicros * 100) / KNACK_SHARE_PERCENT);
}

/** The rate is the price difference over the price, as a percentage (2 decimals). */
export function changeRatePercent(diffMicros: number, priceMicros: number): number {
  if (!priceMicros) return 0;
  return Math.round((diffMicros * 10_000) / priceMicros) / 100;
}
