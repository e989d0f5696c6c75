/**
 * Search's part of the feeds. A search reads a bounded set of candidates through an index, and its page is taken
 * from them here: the same order (the key, highest first, then `_id`, highest first) and the same cursors as the
 * database's read of a whole list (feeds.cursor.ts), so a search's pages and a feed's pages are one kind of page.
 */
import type { Types } from 'mongoose';
import { type KeptState, type KeptStateReport, MAX_LISTED_DIFFERENCES } from '../../lib/kept-state';
import { titleIndexState } from '../contents';
import { nameIndexState } from '../users';
import type { Position } from './feeds.cursor';

type Row = { _id: Types.ObjectId };

const keyOf = (row: Row, key: string | null): number => (key ? Number((row as unknown as Record<string, unknown>)[key] ?? 0) : 0);

/** Highest key first, then highest `_id` (ObjectId hex strings sort as their values). */
export const byKeyThenId = (key: string | null) => (a: Row, b: Row) =>
  keyOf(b, key) - keyOf(a, key) || (String(b._id) < String(a._id) ? -1 : String(b._id) > String(a._id) ? 1 : 0);

/** Whether `row` comes after `position` in that order (feeds.cursor.ts `after`, in memory). */
export function isAfter(row: Row, key: string | null, position: Position | null): boolean {
  if (!position) return true;
  const beforeId = String(row._id) < String(position.id);
  if (!key || position.key === null) return beforeId;
  const value = keyOf(row, key);
  return value < position.key || (value === position.key && beforeId);
}

/** The first `count` rows after `position`, in the feed's order. */
export const rowsAfter = <T extends Row>(rows: T[], key: string | null, position: Position | null, count: number): T[] =>
  rows
    .filter((row) => isAfter(row, key, position))
    .sort(byKeyThenId(key))
    .slice(0, count);

/**
 * Whether a piece meets a ranking's extra condition (feeds.rankings.ts `where`): each field equal to a value, or
 * above a number (`$gt`), the only forms the rankings use.
 */
export function meetsCondition(row: object, where: Record<string, unknown> | undefined): boolean {
  return Object.entries(where ?? {}).every(([field, condition]) => {
    const value = (row as Record<string, unknown>)[field];
    if (condition && typeof condition === 'object' && '$gt' in condition) return typeof value === 'number' && value > (condition as { $gt: number }).$gt;
    if (condition && typeof condition === 'object') throw new Error(`A ranking condition on ${field} that search cannot check: ${JSON.stringify(condition)}`);
    return value === condition;
  });
}

/**
 * The search indexes, titles (contents) and names (users), as one kept state: each compared with, or written from, a
 * recount of its own collection. Their differences are named by index.
 */
export const searchIndexState: KeptState = {
  name: 'search-index',
  describe: 'The word-prefix indexes of listed pieces by title and of members by name, rebuilt from contents and users.',
  check: () => both((index) => index.check()),
  rebuild: () => both((index) => index.rebuild()),
};

async function both(run: (index: { check(): Promise<KeptStateReport>; rebuild(): Promise<KeptStateReport> }) => Promise<KeptStateReport>) {
  const titles = await run(titleIndexState);
  const names = await run(nameIndexState);
  const differences = [...titles.differences.map((line) => `titles: ${line}`), ...names.differences.map((line) => `names: ${line}`)];
  return { checked: titles.checked + names.checked, differences: differences.slice(0, MAX_LISTED_DIFFERENCES) };
}
