import {
  changeRatePercent,
  formatMicros,
  formatStroops,
  knackPriceMicros,
  microsToUsd,
  stroopsOf,
  tagPriceForKnackPrice,
  truncateToCents,
  usdText,
  usdToMicros,
} from '../../server/lib/money';

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

  it('when a mail writes an amount, then whole cents show 2 places and a knack share its fraction of a cent, cut, never rounded', () => {
    expect([20_000_000, 150_000, 0, 45_000, 5_000, 375_000, 12_345, 12_399, 1_234_567, -400_000].map(usdText)).toEqual([
      '$20.00',
      '$0.15',
      '$0.00',
      '$0.045',
      '$0.005',
      '$0.375',
      '$0.0123',
      '$0.0123',
      '$1.2345',
      '-$0.40',
    ]);
  });

  it('when a file writes an amount, then it is dollars with all 6 decimals, exact, its sign kept', () => {
    expect([0, 45_000, 5_000, -45_000, -1, 1_234_567, 30_195_000, -30_190_000].map(formatMicros)).toEqual([
      '0.000000',
      '0.045000',
      '0.005000',
      '-0.045000',
      '-0.000001',
      '1.234567',
      '30.195000',
      '-30.190000',
    ]);
    expect(() => formatMicros(0.5)).toThrow(RangeError);
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

describe('XLM and other Stellar amounts in stroops (1e-7)', () => {
  it.each([
    ['3.0000000', 30_000_000n],
    ['2.9999999', 29_999_999n],
    ['0.0000001', 1n],
    ['922337203685.4775807', 9_223_372_036_854_775_807n],
    ['10', 100_000_000n],
    ['1.5', 15_000_000n],
  ])('when Horizon writes %p, then it is exactly %p stroops', (amount, stroops) => {
    expect(stroopsOf(amount)).toBe(stroops);
  });

  it('when stroops are written back, then they have the 7 decimals Horizon writes', () => {
    expect(formatStroops(30_000_000n)).toBe('3.0000000');
    expect(formatStroops(1n)).toBe('0.0000001');
    expect(formatStroops(0n)).toBe('0.0000000');
    expect(formatStroops(9_223_372_036_854_775_807n)).toBe('922337203685.4775807');
  });

  it.each(['', '-1.0000000', '1.00000001', '1e7', ' 1', '1.', '.5', 'NaN'])('when the amount is %p, then it is refused', (amount) => {
    expect(() => stroopsOf(amount)).toThrow(RangeError);
  });
});
