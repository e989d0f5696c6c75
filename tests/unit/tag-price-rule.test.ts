/**
 * The tag market's price rule (server/modules/tags/price-rule.ts) as properties: for any price, floor and knack
 * counts, tomorrow's price is never under the floor, never more than 5% from today's, follows the week's knacks
 * (more than usual: not down; fewer: not up), and is the same every time for the same figures.
 */
import fc from 'fast-check';
import { dailyMoveBp, MAX_DAILY_MOVE_BP, nextTagPrice } from '../../server/modules/tags';

const floor = fc.integer({ min: 1, max: 20_000_000 });
const knacks = fc.integer({ min: 0, max: 10_000_000 });
/** A price at or above its floor, and the week's and the 28 days' knacks. */
const market = floor.chain((floorMicros) =>
  fc.record({
    floorMicros: fc.constant(floorMicros),
    priceMicros: fc.integer({ min: floorMicros, max: 1_000_000_000 }),
    recentKnacks: knacks,
    usualKnacks: knacks,
  }),
);

describe('the tag price rule', () => {
  it('when any day is priced, then the price stays at or above the floor and moves by at most 5% of the old price', () => {
    fc.assert(
      fc.property(market, (inputs) => {
        const next = nextTagPrice(inputs);
        expect(Number.isSafeInteger(next)).toBe(true);
        expect(next).toBeGreaterThanOrEqual(inputs.floorMicros);
        expect(Math.abs(next - inputs.priceMicros) * 10_000).toBeLessThanOrEqual(inputs.priceMicros * MAX_DAILY_MOVE_BP);
      }),
      { numRuns: 5_000 },
    );
  });

  it('when the week has more knacks than usual, then the price does not fall; fewer, it does not rise; as usual, it stays', () => {
    fc.assert(
      fc.property(market, (inputs) => {
        const next = nextTagPrice(inputs);
        const usualWeek = inputs.usualKnacks / 4;
        if (inputs.recentKnacks > usualWeek) expect(next).toBeGreaterThanOrEqual(inputs.priceMicros);
        if (inputs.recentKnacks < usualWeek) expect(next).toBeLessThanOrEqual(inputs.priceMicros);
        if (inputs.recentKnacks * 4 === inputs.usualKnacks) expect(next).toBe(inputs.priceMicros);
      }),
      { numRuns: 5_000 },
    );
  });

  it('when the same figures are priced again, then the price is the same (deterministic), and a run of days never leaves the floor', () => {
    fc.assert(
      fc.property(market, fc.array(fc.tuple(knacks, knacks), { minLength: 1, maxLength: 60 }), (start, days) => {
        let price = start.priceMicros;
        for (const [recentKnacks, usualKnacks] of days) {
          const inputs = { ...start, priceMicros: price, recentKnacks, usualKnacks };
          const next = nextTagPrice(inputs);
          expect(nextTagPrice({ ...inputs })).toBe(next);
          expect(next).toBeGreaterThanOrEqual(start.floorMicros);
          price = next;
        }
      }),
    );
  });

  it('when the figures are worked by hand, then they give the published moves: a busy week +5%, a quiet one −5%, small counts damped', () => {
    // A $0.625 tag (a $0.05 knack) with 4 knacks a week usual (16 in 28 days).
    expect(dailyMoveBp({ recentKnacks: 4, usualKnacks: 16 })).toBe(0);
    // 12 knacks this week: 25% × (12 − 4) / (4 + 10) = 14.28…% → capped at 5%.
    expect(dailyMoveBp({ recentKnacks: 12, usualKnacks: 16 })).toBe(500);
    expect(nextTagPrice({ priceMicros: 625_000, floorMicros: 625_000, recentKnacks: 12, usualKnacks: 16 })).toBe(656_250);
    // 5 knacks: 25% × 1 / 14 = 1.78…% → 178 bp.
    expect(dailyMoveBp({ recentKnacks: 5, usualKnacks: 16 })).toBe(178);
    // A quiet week at the floor stays at the floor; above it, falls at most 5%.
    expect(nextTagPrice({ priceMicros: 625_000, floorMicros: 625_000, recentKnacks: 0, usualKnacks: 400 })).toBe(625_000);
    expect(nextTagPrice({ priceMicros: 800_000, floorMicros: 625_000, recentKnacks: 0, usualKnacks: 400 })).toBe(760_000);
    // A new tag's first knacks: 25% × 3 / 10 = 7.5% → 5%.
    expect(dailyMoveBp({ recentKnacks: 3, usualKnacks: 0 })).toBe(500);
    expect(() => nextTagPrice({ priceMicros: 1.5, floorMicros: 1, recentKnacks: 0, usualKnacks: 0 })).toThrow(RangeError);
  });
});
