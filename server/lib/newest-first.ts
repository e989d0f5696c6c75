/**
 * Keyset paging of lists shown newest first, ordered by (at desc, _id desc) with string ids: a page ends at
 * (at, _id) of its last item (lib/page-cursor.ts). The tie-break is a string comparison, the same in the database
 * and here, so lists merged from several collections (a member's history) page the same way as one.
 */
import { decodePageCursor, encodePageCursor } from './page-cursor';

export interface NewestPosition {
  at: number;
  id: string;
}

/** The cursor of a position in the list named `list` (see lib/page-cursor.ts: a cursor pages only its own list). */
export const encodeNewestCursor = (list: string, { at, id }: NewestPosition) => encodePageCursor(list, at, id);

export const decodeNewestCursor = (list: string, cursor: string | undefined): NewestPosition | null =>
  decodePageCursor(list, cursor, (at, id) =>
    Number.isSafeInteger(at) && typeof id === 'string' && id.length > 0 && id.length <= 120 ? { at: at as number, id } : null,
  );

/** The condition "after `position`" on (at desc, _id desc). */
export function afterNewest(position: NewestPosition | null): Record<string, unknown> {
  if (!position) return {};
  const at = new Date(position.at);
  return { at: { $lte: at }, $or: [{ at: { $lt: at } }, { _id: { $lt: position.id } }] };
}

export const NEWEST_FIRST: Record<string, -1> = { at: -1, _id: -1 };

/** Newest first, then the greater id first: the order of NEWEST_FIRST. */
export const compareNewestFirst = (a: { at: Date; id: string }, b: { at: Date; id: string }) =>
  b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Splits a `limit + 1` read of the list `list` into the page and the cursor of the next one (null on the last page). */
export function newestPage<T extends { at: Date; _id: string }>(list: string, rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeNewestCursor(list, { at: last.at.getTime(), id: last._id }) : null };
}
