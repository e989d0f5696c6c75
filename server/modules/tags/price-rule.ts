/**
 * The tag market's published rule: how a tag's price moves with its engagement, once a day.
 *
 * Each day, a tag's knacks (plays and views) of the last 7 days are compared with what its own recent past makes
 * usual: the 28 days before those 7, scaled to a week (a quarter of them). More knacks than usual push the price up,
 * fewer push it down, in proportion to the difference and damped for small counts, by at most 5% a day; it never
 * goes under the tag's floor (its baseline price, which shows a $0.05 knack, or $0.99 for the premium tags).
 *
 *     usual      = knacks of the 28 days before / 4
 *     move       = 25% × (knacks of the last 7 days − usual) / (usual + 10), kept within −5% and +5%
 *     next price = max(floor, price + price × move), in whole micro-dollars, truncated toward the old price
 *
 * A knack is worth 8% of its tag's price, truncated to the cent, so a $0.05 knack becomes $0.06 once the price has
 * risen by a fifth: about four days of the most a tag can gain. The arithmetic is on integers (basis points), so the
 * same figures give the same price on every machine.
 */

/** The most a price moves in one day, in basis points (5%). */
export const MAX_DAILY_MOVE_BP = 500;
/** How strongly the week's difference from the usual moves the price: 25% of the relative difference. */
const SENSITIVITY_BP = 2_500;
/** Knacks a week added to the usual count, so that a handful of knacks on a quiet tag does not swing its price. */
const DAMPING_KNACKS = 10;
/** The days compared: the last week, and the 28 days before it. */
export const RECENT_DAYS = 7;
export const USUAL_DAYS = 28;

export interface PriceInputs {
  /** The tag's price now, in micro-dollars (at least its floor). */
  priceMicros: number;
  /** The least the price may be: its baseline. */
  floorMicros: number;
  /** The tag's knacks in the last 7 days. */
  recentKnacks: number;
  /** The tag's knacks in the 28 days before those. */
  usualKnacks: number;
}

/** The day's move in basis points: positive up, negative down, never beyond ±MAX_DAILY_MOVE_BP. */
export function dailyMoveBp({ recentKnacks, usualKnacks }: Pick<PriceInputs, 'recentKnacks' | 'usualKnacks'>): number {
  // usual = usualKnacks / 4, so (recent − usual) / (usual + 10) = (4·recent − usualKnacks) / (usualKnacks + 40).
  const raw = Math.trunc((SENSITIVITY_BP * (4 * recentKnacks - usualKnacks)) / (usualKnacks + 4 * DAMPING_KNACKS));
  return Math.max(-MAX_DAILY_MOVE_BP, Math.min(MAX_DAILY_MOVE_BP, raw));
}

/** The tag's price tomorrow by the rule above. */
export function nextTagPrice(inputs: PriceInputs): number {
  const { priceMicros, floorMicros } = inputs;
  for (const [name, value] of Object.entries(inputs)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of at least 0, not ${value}`);
  }
  const change = Math.trunc((priceMicros * dailyMoveBp(inputs)) / 10_000);
  return Math.max(floorMicros, priceMicros + change);
}

const BASELINE_KNACK_MICROS = 50_000; // $0.05 a play or view
const PREMIUM_KNACK_MICROS = 990_000; // $0.99: Digital Art and Music 2
const PREMIUM_LABELS = new Set(['Digital Art', 'Music 2']);

/** A tag's baseline knack value: its first price, and the floor its price never goes under. */
export function seedKnackPriceMicros(label: string): number {
  return PREMIUM_LABELS.has(label) ? PREMIUM_KNACK_MICROS : BASELINE_KNACK_MICROS;
}
