/** Keyset paging of the feeds: a page ends at (sort key, _id) of its last piece (lib/page-cursor.ts). */
import { Types } from 'mongoose';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';

export interface Position {
  key: number | null;
  id: Types.ObjectId;
}

/** `list` names the list with what decides what it holds and its order (lib/page-cursor.ts: a cursor pages only its list). */
export const encodeCursor = (list: string, { key, id }: Position) => encodePageCursor(list, key, String(id));

export const decodeCursor = (list: string, cursor: string | undefined): Position | null =>
  decodePageCursor(list, cursor, (key, id) =>
    (key === null || Number.isFinite(key)) && typeof id === 'string' && id.length === 24 && Types.ObjectId.isValid(id)
      ? { key: key as number | null, id: new Types.ObjectId(id) }
      : null,
  );

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

/** Splits a `limit + 1` read of the list `list` into the page and the cursor of the next one (null on the last page). */
export function pageOf<T extends { _id: Types.ObjectId }>(list: string, rows: T[], limit: number, keyOf: (row: T) => number | null) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(list, { key: keyOf(last), id: last._id }) : null };
}
