/**
 * When a mail that the mail server did not take is tried again. The wait doubles with each failure (1 minute, 2, 4 …)
 * up to an hour, so a short outage delays mail by minutes while a long one costs the mail server one try per mail an
 * hour. Each wait is cut by a random part of up to a quarter, so that the mails kept during an outage do not all come
 * due in the same minute once it ends. A mail still undelivered GIVE_UP_AFTER_MS after it was written is given up on.
 */

export const FIRST_RETRY_MS = 60_000;
export const MAX_RETRY_MS = 60 * 60_000;
/** Three days: longer than any outage worth waiting out, and the links the mails hold mostly end within it. */
export const GIVE_UP_AFTER_MS = 3 * 86_400_000;
/** The share of each wait that jitter may take off. */
const JITTER_SHARE = 0.25;

/**
 * The wait after the `failures`-th failed attempt (1 for the first). `random` is a number in [0, 1), Math.random's
 * by default; 0 gives the full wait.
 */
export function retryDelayMs(failures: number, random: number = Math.random()): number {
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  const wait = Math.min(FIRST_RETRY_MS * 2 ** exponent, MAX_RETRY_MS);
  return Math.round(wait * (1 - JITTER_SHARE * random));
}

/** Whether a mail written at `createdAt` that just failed again is given up on. */
export const givenUp = (createdAt: Date, now: Date) => now.getTime() - createdAt.getTime() >= GIVE_UP_AFTER_MS;
