/**
 * Time driven by the test. `freezeDate` fakes only `Date` (timers, the event loop, sockets and the database
 * driver's own clocks run as usual), so what the code under test reads as "now" moves only when the test
 * moves it: a one-second cache window or a half-played song is reached in no time, and a busy machine
 * cannot push a request past a window that the test meant it to be inside.
 */
const EVERYTHING_BUT_DATE = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

export interface FrozenDate {
  /** Moves "now" forward. */
  advance(ms: number): void;
  /** Gives `Date` back its real clock. */
  restore(): void;
}

export function freezeDate(at: number = Date.now()): FrozenDate {
  jest.useFakeTimers({ doNotFake: [...EVERYTHING_BUT_DATE], now: at });
  return {
    advance: (ms) => jest.setSystemTime(Date.now() + ms),
    restore: () => jest.useRealTimers(),
  };
}

/**
 * Freezes "now" `intoMs` after the start of the current fixed window of `windowMs`, windows counted from the
 * Unix epoch as the rate limits count them: the seconds left in the window are then known exactly.
 */
export function freezeInWindow(windowMs: number, intoMs = 0): FrozenDate {
  const now = Date.now();
  return freezeDate(now - (now % windowMs) + intoMs);
}
