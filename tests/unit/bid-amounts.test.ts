/** A bid's amounts (XLM to 2 decimals at the edge, stroops inside), the reserve at a rate, and the sale's memo. */
import { createHash } from 'node:crypto';
import { priceToStroops, saleMemoHash, stroopsToPrice, usdMicrosToStroops } from '../../server/modules/bids';

describe('bid amounts', () => {
  it('when a price has at most 2 decimals and is positive, then it is whole stroops; otherwise null', () => {
    expect(priceToStroops(12.5)).toBe(125_000_000n);
    expect(priceToStroops(0.1)).toBe(1_000_000n);
    expect(priceToStroops(0.01)).toBe(100_000n);
    expect(priceToStroops(1.13)).toBe(11_300_000n);
    for (const bad of [0, -1, 0.001, 1.234, Number.NaN, Infinity, '12', undefined, null]) expect(priceToStroops(bad)).toBeNull();
  });

  it('when stroops are shown, then they are cut to 2 decimals, never rounded up', () => {
    expect(stroopsToPrice(125_000_000n)).toBe(12.5);
    expect(stroopsToPrice(1_999_999)).toBe(0.19);
    expect(stroopsToPrice(0)).toBe(0);
  });

  it('when dollars become stroops at a rate, then exactly, rounded up', () => {
    expect(usdMicrosToStroops(2_000_000, 10)).toBe(200_000_000n);
    expect(usdMicrosToStroops(1, 9.8765432)).toBe(99n);
    expect(usdMicrosToStroops(0, 10)).toBe(0n);
  });

  it('when a sale is made, then its memo is SHA-256 of knack-bid:{bidId}', () => {
    const id = '0123456789abcdef01234567:3';
    expect(saleMemoHash(id).toString('hex')).toBe(createHash('sha256').update(`knack-bid:${id}`).digest('hex'));
    expect(saleMemoHash(id)).toHaveLength(32);
  });
});
