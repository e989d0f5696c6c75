import { changeRatePercent, knackPriceMicros, microsToUsd, tagPriceForKnackPrice, truncateToCents, usdToMicros } from '../../server/lib/money';

describe('money in micro-dollars', () => {
  it('when dollars are converted, then the integer micro amount is exact', () => {
    expect(usdToMicros(0.65)).toBe(650_000);
    expect(usdToMicros(12.4)).toBe(12_400_000);
    expect(usdToMicros(0.1 + 0.2)).toBe(300_000);
    expect(microsToUsd(990_000)).toBe(0.99);
  });

  it('when an amount is not a finite number, then it is refused', () => {
    expect(() => usdToMicros(Number.NaN)).toThrow(RangeError);
    expect(() => usdToMicros(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('when truncating to cents, then fractions of a cent are dropped, never rounded up', () => {
    expect(truncateToCents(59_999)).toBe(50_000);
    expect(truncateToCents(60_000)).toBe(60_000);
  });
});

describe('knack price (8% of the tag price, truncated to cents, 0.05 by default)', () => {
  it.each([
    [625_000, 50_000],
    [12_375_000, 990_000],
    [1_000_000, 80_000],
    [1_240_000, 90_000], // 8% is 0.0992: truncated to 0.09
    [0, 50_000],
    [null, 50_000],
  ])('when the tag price is %p micros, then a knack is worth %p micros', (price, knack) => {
    expect(knackPriceMicros(price)).toBe(knack);
  });

  it('when a tag price is derived from a knack price, then the knack price comes back', () => {
    for (const knack of [50_000, 990_000, 960_000, 70_000]) {
      expect(knackPriceMicros(tagPriceForKnackPrice(knack))).toBe(knack);
    }
  });

  it('when the price changed, then the rate is the change over the price in percent, 2 decimals', () => {
    expect(changeRatePercent(125_000, 625_000)).toBe(20);
    expect(changeRatePercent(-100_000, 300_000)).toBe(-33.33);
    expect(changeRatePercent(5, 0)).toBe(0);
  });
});
