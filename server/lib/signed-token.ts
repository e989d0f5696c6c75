/**
 * Tokens that name a few values and carry the server's signature over them, for links that act without a session
 * (a sale's approve link in a bidder's inbox, a mail's unsubscribe link): `value.value.signature`, the signature an
 * HMAC-SHA-256 of the purpose and the values under a key of that use's own. Nobody without the key can make one for
 * other values, and a token made for one purpose is refused for another.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const signatureOf = (key: string, purpose: string, values: readonly string[]) =>
  createHmac('sha256', key)
    .update(`${purpose}:${values.join(':')}`)
    .digest('base64url');

/** A token naming `values` (none may hold a dot), signed for `purpose`. */
export function signedToken(key: string, purpose: string, values: readonly string[]): string {
  if (values.some((value) => !value || value.includes('.'))) throw new RangeError(`A signed token's values must be non-empty and hold no dot (${purpose})`);
  return [...values, signatureOf(key, purpose, values)].join('.');
}

/**
 * The `count` values a token names, or null when it was not signed by us for `purpose`. `normalize` puts each value
 * in the form it was signed in (an id in lower case) before the signature is checked.
 */
export function readSignedToken(key: string, purpose: string, token: string, count: number, normalize = (value: string) => value): string[] | null {
  const parts = token.split('.');
  if (parts.length !== count + 1 || parts.some((part) => !part)) return null;
  const values = parts.slice(0, count).map(normalize);
  const expected = Buffer.from(signatureOf(key, purpose, values));
  const given = Buffer.from(parts[count]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? values : null;
}
