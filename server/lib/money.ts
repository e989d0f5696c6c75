/**
 * Money is kept in integer micro-dollars (1 USD = 1 000 000); no floating-point arithmetic on amounts.
 * Dollars appear only at the edge (API figures, display). XLM and other Stellar amounts are integer stroops
 * (1 XLM = 10 000 000), as bigint: Horizon writes them as decimal text with 7 places, up to 2^63 - 1 stroops.
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

/**
 * An amount as a mail writes it, never rounded: `$12.34` for whole cents, else the exact fraction of a cent a knack's
 * share can be (`$0.045`, `$0.0125`: at most 4 places, cut).
 */
export function usdText(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const whole = Math.abs(Math.trunc(micros / 100)) * 100;
  const dollars = Math.trunc(whole / MICROS_PER_USD);
  const fraction = String(whole % MICROS_PER_USD)
    .padStart(6, '0')
    .slice(0, 4);
  const places = whole % MICROS_PER_CENT === 0 ? fraction.slice(0, 2) : fraction.replace(/0+$/, '');
  return `${sign}$${dollars}.${places}`;
}

/** Micro-dollars as dollars with all 6 decimals, exactly (-45 000 -> "-0.045000"): a file's figures that must sum. */
export function formatMicros(micros: number): string {
  if (!Number.isSafeInteger(micros)) throw new RangeError(`Not a money amount: ${micros}`);
  const sign = micros < 0 ? '-' : '';
  const whole = Math.abs(micros);
  return `${sign}${Math.trunc(whole / MICROS_PER_USD)}.${String(whole % MICROS_PER_USD).padStart(6, '0')}`;
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

export const STROOPS_PER_XLM = 10_000_000n;
const STELLAR_AMOUNT = /^(\d+)(?:\.(\d{1,7}))?$/;

/** Exactly the stroops of an amount as Horizon writes it ("2.9999999" -> 29 999 999n); refuses anything else. */
export function stroopsOf(amount: string): bigint {
  const match = STELLAR_AMOUNT.exec(amount);
  if (!match) throw new RangeError(`Not a Stellar amount: "${amount}"`);
  return BigInt(match[1]!) * STROOPS_PER_XLM + BigInt((match[2] ?? '').padEnd(7, '0'));
}

/** Stroops as Horizon writes them, with 7 decimals (30 000 000n -> "3.0000000"). */
export function formatStroops(stroops: bigint): string {
  const sign = stroops < 0n ? '-' : '';
  const whole = stroops < 0n ? -stroops : stroops;
  return `${sign}${whole / STROOPS_PER_XLM}.${String(whole % STROOPS_PER_XLM).padStart(7, '0')}`;
}
