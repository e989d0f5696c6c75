/**
 * Signed, expiring URLs for files that are not public (HMAC of key and expiry). A link opens its file for 5 to
 * 10 minutes: whoever loses the right to see a piece (an unfollow, the owner making it private) keeps its files
 * no longer than that. The player renews a song's link as it plays (client/src/features/player/signedLinks.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Links end on a boundary of this many seconds, one to two steps after they are made. */
export const SIGNED_URL_STEP_SECONDS = 300;

function signature(secret: string, key: string, expires: number): string {
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('base64url');
}

export function signUrl(secret: string, url: string, key: string, now = Date.now()): string {
  // Rounded up to the step, so that the pages and reloads of the same few minutes get the same URL (and the
  // browser cache), then one step more, so that a link always has at least a step to be used in.
  const expires = Math.ceil(now / 1000 / SIGNED_URL_STEP_SECONDS) * SIGNED_URL_STEP_SECONDS + SIGNED_URL_STEP_SECONDS;
  return `${url}?exp=${expires}&sig=${signature(secret, key, expires)}`;
}

/** The seconds a signed link has left (0 once it has ended), for how long a browser may keep what it opened. */
export function secondsLeft(exp: string, now = Date.now()): number {
  return Math.max(0, Math.floor((Number(exp) * 1000 - now) / 1000));
}

export function verifySignature(secret: string, key: string, exp: unknown, sig: unknown, now = Date.now()): boolean {
  if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) return false;
  const expires = Number(exp);
  if (expires * 1000 < now) return false;
  const expected = Buffer.from(signature(secret, key, expires));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
