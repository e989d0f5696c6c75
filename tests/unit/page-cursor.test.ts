import { loadConfig } from '../../server/config';
import { AppError } from '../../server/lib/errors';
import { CURSOR_MESSAGES, decodePageCursor, encodePageCursor, usePageCursorKey } from '../../server/lib/page-cursor';

const RELOAD =
  'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.';
const OTHER_LIST = 'This cursor belongs to another list: it pages only the list, with the same filters, that gave it. Start this list again without a cursor.';
const LIST = 'feed:popular';
const keyOf = (secret: string) => loadConfig({ NODE_ENV: 'test', JWT_SECRET: secret }).auth.keys.pageCursors;
const PIECE_ID = '65a1b2c3d4e5f6a7b8c9d0e1';
/** Reads back the pair as a list accepts it (any number and string). */
const asPair = (key: unknown, id: unknown) => (typeof key === 'number' && typeof id === 'string' ? { key, id } : null);

/** The answer to decoding `cursor`: the position, or the 400's message. */
function decoded(cursor: string, list = LIST): unknown {
  try {
    return decodePageCursor(list, cursor, asPair);
  } catch (err) {
    if (err instanceof AppError) return `${err.status} ${err.message}`;
    throw err;
  }
}

beforeEach(() => usePageCursorKey(keyOf('cursor-test-secret-0123456789abcdef')));

describe('page cursors', () => {
  it('when a position is encoded, then it decodes back, the same position always gives the same cursor, and nothing in it is readable', () => {
    const cursor = encodePageCursor(LIST, 7, PIECE_ID);
    expect(decoded(cursor)).toEqual({ key: 7, id: PIECE_ID });
    expect(encodePageCursor(LIST, 7, PIECE_ID)).toBe(cursor);
    expect(encodePageCursor(LIST, 8, PIECE_ID)).not.toBe(cursor);
    const opened = Buffer.from(cursor, 'base64url').toString('latin1');
    expect(opened).not.toContain(PIECE_ID);
    expect(opened).not.toContain('[7,');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('when any byte of a cursor is changed, or it was made in the readable form, then it is a 400 with the reload message', () => {
    const sealed = Buffer.from(encodePageCursor(LIST, 7, PIECE_ID), 'base64url');
    for (let at = 0; at < sealed.length; at += 1) {
      const changed = Buffer.from(sealed);
      changed[at] = changed[at]! ^ 0x01;
      expect(decoded(changed.toString('base64url'))).toBe(`400 ${RELOAD}`);
    }
    expect(decoded(sealed.subarray(0, sealed.length - 1).toString('base64url'))).toBe(`400 ${RELOAD}`);
    expect(decoded(Buffer.from(JSON.stringify([7, PIECE_ID])).toString('base64url'))).toBe(`400 ${RELOAD}`);
    expect(decoded('')).toBeNull();
    expect(decoded('A')).toBe(`400 ${RELOAD}`);
  });

  it('when a cursor is given to another list, then it is a 400 that says so, and the messages are the ones exported', () => {
    const cursor = encodePageCursor(LIST, 7, PIECE_ID);
    expect(decoded(cursor, 'feed:new')).toBe(`400 ${OTHER_LIST}`);
    expect(decoded(cursor, `${LIST} `)).toBe(`400 ${OTHER_LIST}`);
    expect(decoded(cursor)).toEqual({ key: 7, id: PIECE_ID });
    expect(CURSOR_MESSAGES).toEqual({ broken: RELOAD, otherList: OTHER_LIST });
  });

  it('when JWT_SECRET changes, then the cursors made before are refused', () => {
    const before = encodePageCursor(LIST, 7, PIECE_ID);
    usePageCursorKey(keyOf('another-secret-for-cursors-0123456789'));
    expect(decoded(before)).toBe(`400 ${RELOAD}`);
  });

  it('when the longest positions the lists page by are encoded, then the cursor fits the contract’s 200 characters', () => {
    // A history item: a knack's ledger key at a millisecond time.
    expect(encodePageCursor(`history:${PIECE_ID}`, Date.now(), `knack:${PIECE_ID}:${PIECE_ID}`).length).toBeLessThanOrEqual(200);
  });
});
