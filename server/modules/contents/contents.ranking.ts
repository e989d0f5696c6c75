/**
 * A piece's ranking keys, kept on the piece so that each feed is one sorted read: the featured order (re-posted
 * pieces first), the radar score (recent pieces by little-followed artists), and the totals a knack bumps. The
 * feeds' refresh job recounts them all from the facts.
 */
import { incInTurn } from '../../lib/in-turn';
import { updateById } from '../../lib/query';
import { ContentModel, type ContentDoc } from './contents.model';

export const RADAR_WINDOW_DAYS = 30;
export const RADAR_MAX_FOLLOWERS = 100;
const DAY_MS = 86_400_000;
/** Lifts re-posted pieces above every unfeatured one (timestamps in ms stay far below it). */
const FEATURED_LIFT = 10_000_000_000_000;

export const featureRankOf = (featuredAt: Date | null, uploadedAt: Date) => (featuredAt ? FEATURED_LIFT + featuredAt.getTime() : uploadedAt.getTime());

/** 1 + reactions of the week while the piece is recent and its artist little followed; else 0 (off the radar). */
export function radarScoreOf(uploadedAt: Date, ownerFollowers: number, weekReactions: number, now = new Date()): number {
  const recent = now.getTime() - uploadedAt.getTime() < RADAR_WINDOW_DAYS * DAY_MS;
  return recent && ownerFollowers < RADAR_MAX_FOLLOWERS ? 1 + weekReactions : 0;
}

/** The ranking keys of a piece being published now. */
export function initialRanking(uploadedAt: Date, ownerFollowers: number) {
  return { featureRank: featureRankOf(null, uploadedAt), trendScore: 0, radarScore: radarScoreOf(uploadedAt, ownerFollowers, 0, uploadedAt) };
}

/**
 * Bumps the kept totals of a piece for `count` new reactions (knacks), so that the member who knacked and the
 * next visitor see them at once. The caller has written the reactions as facts (knack entries in the ledger)
 * first: the refresh job recounts these totals from them, and sets the owner's trend (which only orders the
 * trending artists) from them too, which spares every knack a second write.
 */
export async function recordReaction(content: Pick<ContentDoc, '_id' | 'radarScore'>, count = 1): Promise<void> {
  // In turn and summed per document in this process: fewer writes, and none of FerretDB's lost increments
  // between them. Across processes increments can still be lost: the refresh job repairs them.
  await incInTurn(`content:${content._id}`, { reactedCount: count, trendScore: count, radarScore: content.radarScore > 0 ? count : 0 }, ($inc) =>
    updateById(ContentModel, content._id, { $inc }),
  );
}
