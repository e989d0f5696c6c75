/** What other modules may read of the flags: how many wait for an admin's decision on each of some pieces. */
import type { Types } from 'mongoose';
import { anyOf } from '../../lib/query';
import { FlagModel, type FlagDoc } from './flags.model';

/**
 * The open flags of each piece (every member's, counting or not), by the piece's id; a piece with none is left out.
 * On FerretDB the `$in` filter reads the whole flags collection: for an admin's view of one member, not a hot path.
 */
export async function openFlagCounts(contentIds: Types.ObjectId[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (contentIds.length === 0) return counts;
  const open = await FlagModel.find({ contentId: anyOf(contentIds), resolvedAt: null }, { contentId: 1 }).lean<Pick<FlagDoc, 'contentId'>[]>();
  for (const { contentId } of open) counts.set(String(contentId), (counts.get(String(contentId)) ?? 0) + 1);
  return counts;
}
