/**
 * What other modules change on a piece, through these functions only: its ranking keys, kept on the piece so that
 * each feed is one sorted read (the featured order, re-posted pieces first; the radar score, recent pieces by
 * little-followed artists), the totals that knacks and embed plays bump (the feeds' refresh job recounts them from
 * the facts), and being paid out.
 */
import { Types } from 'mongoose';
import { incInTurn, inTurn } from '../../lib/in-turn';
import { publicPages } from '../../lib/public-pages';
import { updateById } from '../../lib/query';
import { ContentModel, type ContentDoc } from './contents.model';
import { noteSupported } from './contents.supported';

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

/**
 * Moves the kept comments count of a piece by `change` (a comment added or removed), so that the next reader sees
 * it at once; the comments are the facts, and the refresh job recounts the total from them.
 */
export async function recordComment(contentId: Types.ObjectId, change: 1 | -1): Promise<void> {
  await incInTurn(`content-comments:${contentId}`, { commentsCount: change }, ($inc) => updateById(ContentModel, contentId, { $inc }));
}

/**
 * Marks the piece paid out by `payerId`, only from not paid out (a repeat changes nothing), and clears the
 * cached public answers that show it. Answers the piece as it is now (null if it was removed).
 */
export async function markPaidOut(contentId: Types.ObjectId, payerId: string): Promise<ContentDoc | null> {
  // No claim needed: the caller's ledger entry `listing:{contentId}` (a unique insert) decided the payer, and only
  // that payer's calls get here, so two writers at once write the same values.
  const current = await ContentModel.findById(contentId).lean<ContentDoc>();
  if (!current || current.isPaidOut) return current;
  // The payer's collection names the piece first: a piece never has a payer whose collection lacks it.
  await noteSupported(contentId, payerId);
  const updated = await ContentModel.findByIdAndUpdate(
    contentId,
    { $set: { isPaidOut: true, payerId: new Types.ObjectId(payerId) } },
    { new: true },
  ).lean<ContentDoc>();
  publicPages.clear();
  return updated;
}

/** Counts one embed play in the piece's kept total (the rankings job resets it from the plays, should this bump be lost). */
export async function countEmbedPlay(contentId: string): Promise<number> {
  // No projection: FerretDB's findAndModify does not take one.
  const updated = await inTurn(`content:${contentId}`, () =>
    ContentModel.findByIdAndUpdate(contentId, { $inc: { playCount: 1 } }, { new: true }).lean<Pick<ContentDoc, 'playCount'>>(),
  );
  return updated?.playCount ?? 0;
}

/** A piece's kept totals and radar score, as the rankings job recounts them. */
export type PieceTotals = Partial<Pick<ContentDoc, 'reactedCount' | 'commentsCount' | 'trendScore' | 'playCount' | 'radarScore'>>;

/** Sets recounted totals, one piece each (the rankings job). */
export async function setPieceTotals(changes: { contentId: Types.ObjectId; totals: PieceTotals }[]): Promise<void> {
  if (!changes.length) return;
  await ContentModel.bulkWrite(
    changes.map(({ contentId, totals }) => ({ updateOne: { filter: { _id: contentId }, update: { $set: totals } } })),
    { ordered: false },
  );
}
