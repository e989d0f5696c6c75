/** What other modules may read of the flags: the open ones, counted per piece. */
import type { Types } from 'mongoose';
import { anyOf } from '../../lib/query';
import { FlagModel, type FlagDoc } from './flags.model';

export interface OpenFlagCounts {
  /** Open flags per piece id; a piece with none is left out. */
  byPiece: Map<string, number>;
  /** The open flags counted (at most `limit`). */
  flags: number;
  /** True when more than `limit` flags are open, so the counts stop short. */
  more: boolean;
}

/**
 * The open flags (every member's, counting or not) waiting for an admin's decision: of the given pieces, or of all
 * pieces up to `limit` flags. Both are filters, not keys, so on FerretDB this reads the whole flags collection: for
 * the admins' dashboard and their view of one member, never a member's request.
 */
export async function openFlagCounts({ contentIds, limit }: { contentIds?: Types.ObjectId[]; limit?: number } = {}): Promise<OpenFlagCounts> {
  if (contentIds?.length === 0) return { byPiece: new Map(), flags: 0, more: false };
  const filter = { resolvedAt: null, ...(contentIds && { contentId: anyOf(contentIds) }) };
  const query = FlagModel.find(filter, { contentId: 1 });
  const open = await (limit === undefined ? query : query.limit(limit + 1)).lean<Pick<FlagDoc, 'contentId'>[]>();
  const counted = limit === undefined ? open : open.slice(0, limit);
  const byPiece = new Map<string, number>();
  for (const { contentId } of counted) byPiece.set(String(contentId), (byPiece.get(String(contentId)) ?? 0) + 1);
  return { byPiece, flags: counted.length, more: open.length > counted.length };
}
