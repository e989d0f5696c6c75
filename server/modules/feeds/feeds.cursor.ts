/**
 * Keyset paging (ARCHITECTURE §3): a page ends at (sort key, _id) of its last item, and the next page
 * starts after it. The cursor is that pair, opaque to clients.
 */
import { Types } from 'mongoose';
import { AppError } from '../../lib/errors';

export interface Position {
  key: number | null;
  id: Types.ObjectId;
}

export const encodeCursor = ({ key, id }: Position) => Buffer.from(JSON.stringify([key, String(id)])).toString('base64url');

export function decodeCursor(cursor: string | undefined): Position | null {
  if (!cursor) return null;
  try {
    const [key, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if ((key === null || Number.isFinite(key)) && typeof id === 'string' && Types.ObjectId.isValid(id) && id.length === 24) {
      return { key: key as number | null, id: new Types.ObjectId(id) };
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError(400, 'bad_request', 'This page link is no longer valid. Please reload the list.', [{ path: 'cursor', message: 'Invalid cursor' }]);
}

/**
 * The condition "after `position`" for a feed sorted by `key` desc then `_id` desc (`_id` alone when key is
 * null): key <= k and (key < k or _id < id). The plain range first bounds an index scan, and settles most
 * documents with one comparison where the database filters them itself (FerretDB).
 */
export function after(key: string | null, position: Position | null): Record<string, unknown> {
  if (!position) return {};
  if (!key || position.key === null) return { _id: { $lt: position.id } };
  return { [key]: { $lte: position.key }, $or: [{ [key]: { $lt: position.key } }, { _id: { $lt: position.id } }] };
}

/** Sort spec matching `after`. */
export const sortOf = (key: string | null): Record<string, 1 | -1> => (key ? { [key]: -1, _id: -1 } : { _id: -1 });

/** Splits a `limit + 1` read into the page and the cursor of the next one (null on the last page). */
export function pageOf<T extends { _id: Types.ObjectId }>(rows: T[], limit: number, keyOf: (row: T) => number | null) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor({ key: keyOf(last), id: last._id }) : null };
}
