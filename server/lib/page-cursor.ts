/**
 * The one codec of keyset-paging cursors: a page ends at (sort key, tie-break id) of its last item, and the
 * next page starts after it. A cursor that does not open, or opens to a pair the list does not accept, is a 400
 * that tells the member to reload the list.
 *
 * The sort key can be a figure the reader may not see (the views of a piece whose owner hides them, a trending
 * score), so the pair travels sealed: encrypted, so that nothing in it can be read, and signed with an HMAC, so
 * that a cursor the server did not make (a position forged to probe a count, or far past a list's end) is refused
 * before anything is read. Sealing is deterministic (the HMAC of the pair is also the cipher's IV, as in SIV
 * encryption): the same position always gives the same cursor, so a stored public answer keeps its ETag until
 * the list itself changes.
 */
import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors';

/** Bytes of the HMAC kept in a cursor, and of the IV it doubles as. */
const TAG_BYTES = 16;
const CIPHER = 'aes-256-ctr';

interface CursorKeys {
  sign: Buffer;
  encrypt: Buffer;
}

let cursorKeys: CursorKeys | null = null;

/** Sets the key cursors are sealed with (config.auth.keys.pageCursors): the app does so once as it starts. */
export function usePageCursorKey(key: string): void {
  const master = Buffer.from(key, 'base64url');
  const subkey = (use: string) => createHmac('sha256', master).update(use).digest();
  cursorKeys = { sign: subkey('page-cursor:sign'), encrypt: subkey('page-cursor:encrypt') };
}

function keys(): CursorKeys {
  if (!cursorKeys) throw new Error('Page cursors have no key: call usePageCursorKey(config.auth.keys.pageCursors) at start.');
  return cursorKeys;
}

const tagOf = (plain: Buffer) => createHmac('sha256', keys().sign).update(plain).digest().subarray(0, TAG_BYTES);

function seal(plain: Buffer): string {
  const tag = tagOf(plain);
  const cipher = createCipheriv(CIPHER, keys().encrypt, tag);
  return Buffer.concat([tag, cipher.update(plain), cipher.final()]).toString('base64url');
}

/** The bytes sealed in `cursor`, or null when the server did not seal them (altered, forged, or under another key). */
function open(cursor: string): Buffer | null {
  const sealed = Buffer.from(cursor, 'base64url');
  if (sealed.length <= TAG_BYTES) return null;
  const tag = sealed.subarray(0, TAG_BYTES);
  const decipher = createDecipheriv(CIPHER, keys().encrypt, tag);
  const plain = Buffer.concat([decipher.update(sealed.subarray(TAG_BYTES)), decipher.final()]);
  return timingSafeEqual(tag, tagOf(plain)) ? plain : null;
}

export const encodePageCursor = (key: unknown, id: string) => seal(Buffer.from(JSON.stringify([key, id])));

/** The position a cursor holds, as `accept` reads its pair (null when the pair is not one of its list's). */
export function decodePageCursor<T>(cursor: string | undefined, accept: (key: unknown, id: unknown) => T | null): T | null {
  if (!cursor) return null;
  let position: T | null = null;
  const plain = open(cursor);
  if (plain) {
    const pair = JSON.parse(plain.toString('utf8')) as unknown;
    if (Array.isArray(pair) && pair.length === 2) position = accept(pair[0], pair[1]);
  }
  if (position) return position;
  throw new AppError(400, 'bad_request', 'This page link is no longer valid. Please reload the list.', [{ path: 'cursor', message: 'Invalid cursor' }]);
}
