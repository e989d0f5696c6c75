/**
 * A bid's amounts and its sale's memo: prices are XLM with at most 2 decimals at the edge and integer stroops
 * (1e-7 XLM) inside; the reserve is the piece's dollar earnings in stroops at the current rate, rounded up so that
 * a bid equal to the earnings never passes for bigger.
 */
import { createHash } from 'node:crypto';
import { STROOPS_PER_XLM } from '../../lib/money';

const STROOPS_PER_CENT_OF_XLM = STROOPS_PER_XLM / 100n;

/** The price as stroops, or null when it is not a positive number of XLM with at most 2 decimals. */
export function priceToStroops(price: unknown): bigint | null {
  if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0) return null;
  const cents = Math.round(price * 100);
  // A number with more than 2 decimals is not a whole number of cents (0.1 * 100 is 10.000000000000002: allowed).
  if (Math.abs(cents - price * 100) > 1e-6 * Math.max(1, cents) || !Number.isSafeInteger(cents) || cents < 1) return null;
  return BigInt(cents) * STROOPS_PER_CENT_OF_XLM;
}

/** Stroops as XLM to 2 decimals, cut (never rounded up): what the app shows. */
export const stroopsToPrice = (stroops: bigint | number): number => Number(BigInt(stroops) / STROOPS_PER_CENT_OF_XLM) / 100;

/** Micro-dollars as stroops at `xlmPerUsd`, rounded up (1 USD = 1e6 micros; 1 XLM = 1e7 stroops). */
export function usdMicrosToStroops(micros: number, xlmPerUsd: number): bigint {
  if (micros <= 0) return 0n;
  // The rate to 7 decimals as an integer, so that the product is exact: micros * rate7 / 1e6 stroops.
  const rate7 = BigInt(Math.round(xlmPerUsd * 1e7));
  const product = BigInt(micros) * rate7;
  return (product + 999_999n) / 1_000_000n;
}

/** The memo of a bid's sale transaction: SHA-256 of `knack-bid:{bidId}`, 32 bytes. */
export const saleMemoHash = (bidId: string): Buffer => createHash('sha256').update(`knack-bid:${bidId}`).digest();
