/**
 * The feeds' rankings, defined here and nowhere else (README "Rankings"). Every ranking is one numeric key
 * on the piece, kept up to date when something changes (publish, re-post, reaction, the refresh job), so a
 * feed is an indexed keyset read of `(key desc, _id desc)` over the listed pieces:
 *
 * - featured: pieces an admin re-posted, newest re-post first, then every other piece, newest first.
 * - popular: most reactions of all time (`reactedCount`).
 * - trending: most reactions in the last 7 days (`trendScore`).
 * - radar (On the Radar): pieces of the last 30 days by artists with fewer than 100 followers; most
 *   reactions in the last 7 days first, then newest. Other pieces are not on the radar (`radarScore` 0).
 * - new: newest first (`_id`).
 */
import mongoose, { Types } from 'mongoose';
import { inTurn } from '../../lib/in-turn';
import { ours } from '../../lib/query';
import { ContentModel, type ContentDoc } from '../contents/contents.model';
import { UserModel } from '../users/users.model';
import { publicPages } from './feeds.cache';
import { ReactionDayModel } from './reactions.model';

export type FeedKind = 'featured' | 'popular' | 'trending' | 'radar' | 'new';

export const TREND_WINDOW_DAYS = 7;
export const RADAR_WINDOW_DAYS = 30;
export const RADAR_MAX_FOLLOWERS = 100;
const DAY_MS = 86_400_000;
/** Lifts re-posted pieces above every unfeatured one (timestamps in ms stay far below it). */
const FEATURED_LIFT = 10_000_000_000_000;

/** The sort key of each feed (null: `_id` alone) and the extra condition a piece must meet to be in it. */
export const RANKINGS: Record<FeedKind, { key: 'featureRank' | 'reactedCount' | 'trendScore' | 'radarScore' | null; where?: Record<string, unknown> }> = {
  featured: { key: 'featureRank' },
  popular: { key: 'reactedCount' },
  trending: { key: 'trendScore' },
  radar: { key: 'radarScore', where: { radarScore: { $gt: 0 } } },
  new: { key: null },
};

export const featureRankOf = (featuredAt: Date | null, uploadedAt: Date) =>
  featuredAt ? FEATURED_LIFT + featuredAt.getTime() : uploadedAt.getTime();

/** 1 + reactions of the week while the piece is recent and its artist little followed; else 0 (off the radar). */
export function radarScoreOf(uploadedAt: Date, ownerFollowers: number, weekReactions: number, now = new Date()): number {
  const recent = now.getTime() - uploadedAt.getTime() < RADAR_WINDOW_DAYS * DAY_MS;
  return recent && ownerFollowers < RADAR_MAX_FOLLOWERS ? 1 + weekReactions : 0;
}

/** The ranking keys of a piece being published now. */
export function initialRanking(uploadedAt: Date, ownerFollowers: number) {
  return { featureRank: featureRankOf(null, uploadedAt), trendScore: 0, radarScore: radarScoreOf(uploadedAt, ownerFollowers, 0, uploadedAt) };
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Counts reactions (knacks) to a piece in every ranking, one by default. The caller (the knack ledger)
 * makes sure a member's reaction to a piece is counted once.
 */
export async function recordReaction(content: Pick<ContentDoc, '_id' | 'ownerId' | 'radarScore'>, at = new Date(), count = 1): Promise<void> {
  const day = dayOf(at);
  // One at a time per document: see inTurn (FerretDB loses concurrent increments of one document).
  const dayId = `${content._id}:${day}`;
  await inTurn(`reaction-day:${dayId}`, () =>
    ReactionDayModel.updateOne({ _id: dayId }, { $inc: { count }, $setOnInsert: { contentId: content._id, ownerId: content.ownerId, day } }, { upsert: true }),
  );
  await inTurn(`content:${content._id}`, () =>
    ContentModel.updateOne({ _id: content._id }, { $inc: { reactedCount: count, trendScore: count, radarScore: content.radarScore > 0 ? count : 0 } }),
  );
  await inTurn(`user:${content.ownerId}`, () => UserModel.updateOne({ _id: content.ownerId }, { $inc: { trendScore: count } }));
}

/**
 * The refresh job: recomputes the week's scores from the daily reaction counts (a reaction leaves the
 * trending window after 7 days; a piece leaves the radar after 30). Idempotent; runs under a lease.
 */
export async function refreshRankings(now = new Date()): Promise<{ contents: number; users: number }> {
  const since = dayOf(new Date(now.getTime() - (TREND_WINDOW_DAYS - 1) * DAY_MS));
  const days = await ReactionDayModel.find({ day: mongoose.trusted({ $gte: since }) }, { contentId: 1, ownerId: 1, count: 1 }).lean();
  const byContent = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const { contentId, ownerId, count } of days) {
    byContent.set(String(contentId), (byContent.get(String(contentId)) ?? 0) + count);
    byOwner.set(String(ownerId), (byOwner.get(String(ownerId)) ?? 0) + count);
  }
  const radarSince = new Date(now.getTime() - RADAR_WINDOW_DAYS * DAY_MS);
  // Only pieces whose scores may change: those scored now, and the recent ones (radar eligibility).
  const candidates = await ContentModel.find(
    ours({ $or: [{ trendScore: { $gt: 0 } }, { radarScore: { $gt: 0 } }, { uploadedAt: { $gte: radarSince } }] }),
    { ownerId: 1, uploadedAt: 1, trendScore: 1, radarScore: 1 },
  ).lean<Pick<ContentDoc, '_id' | 'ownerId' | 'uploadedAt' | 'trendScore' | 'radarScore'>[]>();
  const owners = new Map(
    (await UserModel.find({ _id: mongoose.trusted({ $in: [...new Set(candidates.map((c) => String(c.ownerId)))] }) }, { followersCount: 1 }).lean()).map((u) => [
      String(u._id),
      u.followersCount,
    ]),
  );
  const contentUpdates = candidates.flatMap((piece) => {
    const week = byContent.get(String(piece._id)) ?? 0;
    const radarScore = radarScoreOf(piece.uploadedAt, owners.get(String(piece.ownerId)) ?? 0, week, now);
    if (week === piece.trendScore && radarScore === piece.radarScore) return [];
    return [{ updateOne: { filter: { _id: piece._id }, update: { $set: { trendScore: week, radarScore } } } }];
  });
  if (contentUpdates.length) await ContentModel.bulkWrite(contentUpdates, { ordered: false });

  const scoredUsers = await UserModel.find({ trendScore: mongoose.trusted({ $gt: 0 }) }, { trendScore: 1 }).lean();
  const userIds = new Set([...scoredUsers.map((u) => String(u._id)), ...byOwner.keys()]);
  const current = new Map(scoredUsers.map((u) => [String(u._id), u.trendScore]));
  const userUpdates = [...userIds].flatMap((id) => {
    const week = byOwner.get(id) ?? 0;
    return week === (current.get(id) ?? 0) ? [] : [{ updateOne: { filter: { _id: new Types.ObjectId(id) }, update: { $set: { trendScore: week } } } }];
  });
  if (userUpdates.length) await UserModel.bulkWrite(userUpdates, { ordered: false });
  publicPages.clear();
  return { contents: contentUpdates.length, users: userUpdates.length };
}
