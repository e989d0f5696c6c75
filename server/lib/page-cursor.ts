/**
 * The one codec of keyset-paging cursors: a page ends at (sort key, tie-break id) of its last item, and the
 * next page starts after it. The pair travels as base64url JSON, opaque to clients; a cursor that does not
 * decode to a pair the list accepts is a 400 that tells the member to reload the list.
 */
import { AppError } from './errors';

export const encodePageCursor = (key: unknown, id: string) => Buffer.from(JSON.stringify([key, id])).toString('base64url');

/** The position a cursor holds, as `accept` reads its pair (null when the pair is not one of its list's). */
export function decodePageCursor<T>(cursor: string | undefined, accept: (key: unknown, id: unknown) => T | null): T | null {
  if (!cursor) return null;
  let position: T | null = null;
  try {
    const pair = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(pair) && pair.length === 2) position = accept(pair[0], pair[1]);
  } catch {
    // not JSON: refused below
  }
  if (position) return position;
  throw new AppError(400, 'bad_request', 'This page link is no longer valid. Please reload the list.', [{ path: 'cursor', message: 'Invalid cursor' }]);
}
