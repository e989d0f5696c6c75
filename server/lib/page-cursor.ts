/**
 * The one codec of keyset-paging cursors: a page ends at (sort key, tie-break id) of its last item, and the
 * next page starts after it. A cursor that does not open, or opens to a pair the list does not accept, is a 400
 * that says it is not one the server gave.
 *
 * Each cursor is bound to the list that gave it: the list names itself with everything that decides what it holds
 * and in what order (`feed:popular` and its tag, say), and a short hash of that name is sealed with the position.
 * Given to another list, a position would be read in that list's order and page from a wrong place (a Popular
 * cursor on the newest-first list can start past its last piece and answer an empty page, which ends the list
 * without a word): such a cursor is a 400 that says it belongs to another list.
 *
 * The sort key can be a figure the reader may not see (the views of a piece whose owner hides them, a trending
 * score), so the pair travels sealed: encrypted, so that nothing in it can be read, and signed with an HMAC, so
 * that a cursor the server did not make (a position forged to probe a count, or far past a list's end) is refused
 * before anything is read. Sealing is deterministic (the HMAC of the pair is also the cipher's IV, as in SIV
 * encryption): the same position always gives the same cursor, so a stored public answer keeps its ETag until
 * the list itself changes.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors';

export const CURSOR_MESSAGES = {
  broken: 'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.',
  otherList: 'This cursor belongs to another list: it pages only the list, with the same filters, that gave it. Start this list again without a cursor.',
};

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

/** A short hash of a list's name: enough to tell lists apart, sealed with the position so that it cannot be changed. */
const listTagOf = (list: string) => createHash('sha256').update(list).digest('base64url').slice(0, 11);

/** The cursor of the position (key, id) in the list named `list` (its kind and every filter that changes what it holds). */
export const encodePageCursor = (list: string, key: unknown, id: string) => seal(Buffer.from(JSON.stringify([key, id, listTagOf(list)])));

const refused = (message: string) => new AppError(400, 'bad_request', message, [{ path: 'cursor', message }]);

/**
 * The position a cursor of the list `list` holds, as `accept` reads its pair (null when the pair is not one of its
 * list's). A cursor of another list is refused with its own message.
 */
export function decodePageCursor<T>(list: string, cursor: string | undefined, accept: (key: unknown, id: unknown) => T | null): T | null {
  if (!cursor) return null;
  const plain = open(cursor);
  const sealed = plain ? (JSON.parse(plain.toString('utf8')) as unknown) : null;
  if (!Array.isArray(sealed) || sealed.length !== 3) throw refused(CURSOR_MESSAGES.broken);
  if (sealed[2] !== listTagOf(list)) throw refused(CURSOR_MESSAGES.otherList);
  const position = accept(sealed[0], sealed[1]);
  if (position) return position;
  throw refused(CURSOR_MESSAGES.broken);
}
