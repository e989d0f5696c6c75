/** Signed, expiring URLs for files that are not public (HMAC of key and expiry). */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNED_URL_TTL_SECONDS = 3600;

function signature(secret: string, key: string, expires: number): string {
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('base64url');
}

export function signUrl(secret: string, url: string, key: string, now = Date.now()): string {
  // Rounded to the hour so a page reload reuses the same URL (and the browser cache).
  const expires = Math.ceil(now / 1000 / SIGNED_URL_TTL_SECONDS) * SIGNED_URL_TTL_SECONDS + SIGNED_URL_TTL_SECONDS;
  return `${url}?exp=${expires}&sig=${signature(secret, key, expires)}`;
}

export function verifySignature(secret: string, key: string, exp: unknown, sig: unknown, now = Date.now()): boolean {
  if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) return false;
  const expires = Number(exp);
  if (expires * 1000 < now) return false;
  const expected = Buffer.from(signature(secret, key, expires));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
