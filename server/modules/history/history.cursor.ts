/**
 * Keyset paging of a member's history (newest first): a page ends at (at, historyId) of its last item
 * (lib/page-cursor.ts). The history merges several collections whose ids are all strings, so the tie-break is
 * a string comparison, the same in the database and here.
 */
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';

export interface HistoryPosition {
  at: number;
  id: string;
}

export const encodeHistoryCursor = ({ at, id }: HistoryPosition) => encodePageCursor(at, id);

export const decodeHistoryCursor = (cursor: string | undefined): HistoryPosition | null =>
  decodePageCursor(cursor, (at, id) =>
    Number.isSafeInteger(at) && typeof id === 'string' && id.length > 0 && id.length <= 120 ? { at: at as number, id } : null,
  );

/** The condition "after `position`" on (at desc, _id desc). */
export function afterPosition(position: HistoryPosition | null): Record<string, unknown> {
  if (!position) return {};
  const at = new Date(position.at);
  return { at: { $lte: at }, $or: [{ at: { $lt: at } }, { _id: { $lt: position.id } }] };
}

export const HISTORY_SORT: Record<string, -1> = { at: -1, _id: -1 };

/** Newest first, then the greater id first: the order of HISTORY_SORT. */
export const compareNewestFirst = (a: { at: Date; id: string }, b: { at: Date; id: string }) =>
  b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
