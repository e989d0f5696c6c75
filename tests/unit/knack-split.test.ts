/**
 * The knack split (90% to the owner, 10% to the payer; all to the owner when they are the payer) as a
 * property: for every value and every owner / payer, the legs are exact.
 */
import fc from 'fast-check';
import { knackLegs, PLATFORM_KNACKS, userAccount } from '../../server/modules/ledger';

const id = fc.stringMatching(/^[0-9a-f]{24}$/);
const credit = (legs: ReturnType<typeof knackLegs>, account: string) =>
  legs.filter((leg) => leg.account === account).reduce((sum, leg) => sum + leg.amountMicros, 0);

describe('knackLegs', () => {
  it('when any knack value is split between an owner and a payer, then the legs sum to zero, the credits to the value, and the payer gets 10% rounded down', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), id, id, (value, owner, payer) => {
        fc.pre(owner !== payer);
        const legs = knackLegs(value, owner, payer);
        expect(legs.reduce((sum, leg) => sum + leg.amountMicros, 0)).toBe(0);
        expect(legs.every((leg) => Number.isSafeInteger(leg.amountMicros))).toBe(true);
        expect(credit(legs, PLATFORM_KNACKS)).toBe(-value);
        expect(credit(legs, userAccount(payer))).toBe(Math.floor(value / 10));
        expect(credit(legs, userAccount(owner))).toBe(value - Math.floor(value / 10));
        expect(credit(legs, userAccount(owner)) * 10).toBeGreaterThanOrEqual(value * 9);
      }),
      { numRuns: 2_000 },
    );
  });

  it('when the owner paid or nobody did, then the owner gets the whole value; a value of 0 moves nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), id, fc.boolean(), (value, owner, ownerPaid) => {
        const legs = knackLegs(value, owner, ownerPaid ? owner : null);
        expect(legs).toEqual([
          { account: PLATFORM_KNACKS, amountMicros: -value },
          { account: userAccount(owner), amountMicros: value },
        ]);
      }),
    );
    expect(knackLegs(0, 'a', 'b')).toEqual([]);
    expect(() => knackLegs(0.5, 'a', 'b')).toThrow(RangeError);
    expect(() => knackLegs(-1, 'a', 'b')).toThrow(RangeError);
  });
});
