/** When the outbox tries a mail again: 1 minute doubling to an hour, less up to a quarter of jitter, given up after three days. */
import { retryDelayMs } from '../../server/modules/mail-outbox';
import { givenUp } from '../../server/modules/mail-outbox/testing';

const MINUTE = 60_000;

describe('the outbox retry schedule', () => {
  it('when there is no jitter, then the waits are 1, 2, 4 … minutes, capped at an hour from the seventh failure on', () => {
    const waits = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1, 0) / MINUTE);
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, 60]);
  });

  it('when jitter is at its largest, then a quarter comes off, and never more', () => {
    expect(retryDelayMs(1, 0.5)).toBe(52_500);
    // Math.random stays below 1, so the least wait is a millisecond or so above three quarters.
    expect(retryDelayMs(1, 0.999_999) - 45_000).toBeGreaterThanOrEqual(0);
    expect(retryDelayMs(1, 0.999_999) - 45_000).toBeLessThanOrEqual(1);
    expect(retryDelayMs(7, 0.999_999) - 45 * MINUTE).toBeGreaterThanOrEqual(0);
    expect(retryDelayMs(7, 0.999_999) - 45 * MINUTE).toBeLessThanOrEqual(1);
    for (let failures = 1; failures <= 100; failures += 1) {
      const wait = retryDelayMs(failures);
      expect(wait).toBeGreaterThanOrEqual(0.75 * Math.min(2 ** (failures - 1), 60) * MINUTE);
      expect(wait).toBeLessThanOrEqual(60 * MINUTE);
    }
  });

  it('when failures are very many, then the wait stays an hour (no overflow)', () => {
    expect(retryDelayMs(10_000, 0)).toBe(60 * MINUTE);
    expect(retryDelayMs(0, 0)).toBe(MINUTE);
  });

  it('when a mail has waited three days, then it is given up on, and not a moment before', () => {
    const written = new Date('2026-03-01T10:00:00.000Z');
    expect(givenUp(written, new Date('2026-03-04T09:59:59.999Z'))).toBe(false);
    expect(givenUp(written, new Date('2026-03-04T10:00:00.000Z'))).toBe(true);
  });
});
