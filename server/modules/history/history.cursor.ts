/**
 * Keyset paging of a member's history (newest first): a page ends at (at, historyId) of its last item. The
 * history merges several collections whose ids are all strings, so the tie-break is a string comparison,
 * the same in the database and here.
 */
import { AppError } from '../../lib/errors';

export interface HistoryPosition {
  at: number;
  id: string;
}

export const encodeHistoryCursor = ({ at, id }: HistoryPosition) => Buffer.from(JSON.stringify([at, id])).toString('base64url');

export function decodeHistoryCursor(cursor: string | undefined): HistoryPosition | null {
  if (!cursor) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(at) && typeof id === 'string' && id.length > 0 && id.length <= 120) return { at: at as number, id };
  } catch {
    // fall through to the error below
  }
  throw new AppError(400, 'bad_request', 'This page link is no longer valid. Please reload the list.', [{ path: 'cursor', message: 'Invalid cursor' }]);
}

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
