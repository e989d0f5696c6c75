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
 *
 * The counts behind them (a piece's reactions, plays and scores, an owner's trend score and listed pieces)
 * are kept totals, bumped as things happen so that a feed reads one number. On FerretDB concurrent bumps
 * of one document can be lost, and on any database a process can die between the fact and its bump. So the
 * refresh job recounts every total from the facts (knack entries in the ledger, embed plays, listed pieces, follows)
 * and sets the ones that differ: a lost bump is wrong for one job period at most, never for good. Before it counts,
 * it puts back under their keys the facts that older code keyed by an id spelled in capitals (follows, embed plays,
 * and the blocks and thread sides of messages), each a repair that finds nothing once done.
 */
import { Types, type AnyBulkWriteOperation } from 'mongoose';
import { publicPages } from '../../lib/public-pages';
import { anyOf, ours } from '../../lib/query';
import { radarScoreOf, setPieceTotals, type ContentDoc, type PieceTotals, contentReads } from '../contents';
import { knackFacts } from '../ledger';
import { embedPlayCounts, repairEmbedPlayKeys } from '../share';
import { followTotals, repairFollowKeys } from '../follows';
import { repairMessageKeys } from '../messages';
import { commentTotals } from '../comments';
import { setMemberTotals, type MemberTotals, type UserDoc, userReads } from '../users';
import { buildFeedLists } from './feeds.lists';
import { ReactionDayModel, type ReactionDayDoc } from './reactions.model';
import { utcDayOf } from '../../lib/calendar';

export { RANKINGS, type FeedKind } from './feeds.kinds';

export const TREND_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

const dayOf = utcDayOf;

const add = (counts: Map<string, number>, key: string, n = 1) => counts.set(key, (counts.get(key) ?? 0) + n);

type Piece = Pick<ContentDoc, '_id' | 'ownerId' | 'uploadedAt' | 'listed' | 'reactedCount' | 'commentsCount' | 'trendScore' | 'radarScore' | 'playCount'>;

/**
 * The refresh job: recounts every kept total from the facts, which also moves reactions out of the trending
 * window after 7 days and pieces off the radar after 30. Sets only what differs. Idempotent; runs under a lease.
 * Answers how many pieces, members and reaction days it changed.
 */
export async function refreshRankings(now = new Date()): Promise<{ contents: number; users: number; days: number; lists: number }> {
  // Facts that older code keyed by an id spelled in capitals are put back under their keys first, so that each is
  // counted once.
  await Promise.all([repairFollowKeys(), repairEmbedPlayKeys(), repairMessageKeys()]);
  const since = dayOf(new Date(now.getTime() - (TREND_WINDOW_DAYS - 1) * DAY_MS));
  const [knacks, plays, comments, pieces] = await Promise.all([
    knackFacts(),
    embedPlayCounts(),
    commentTotals(),
    contentReads.many<Piece>(
      {},
      {
        projection: { ownerId: 1, uploadedAt: 1, listed: 1, reactedCount: 1, commentsCount: 1, trendScore: 1, radarScore: 1, playCount: 1 },
      },
    ),
  ]);
  const ownerOf = new Map(pieces.map((piece) => [String(piece._id), String(piece.ownerId)]));

  const reacted = new Map<string, number>();
  const week = new Map<string, number>();
  const perDay = new Map<string, number>();
  for (const { contentId, at } of knacks) {
    const id = String(contentId);
    if (!ownerOf.has(id)) continue; // a removed piece
    const day = dayOf(at);
    add(reacted, id);
    add(perDay, `${id}:${day}`);
    if (day >= since) add(week, id);
  }
  const ownerWeek = new Map<string, number>();
  const listedOf = new Map<string, number>();
  for (const piece of pieces) {
    const owner = String(piece.ownerId);
    add(ownerWeek, owner, week.get(String(piece._id)) ?? 0);
    add(listedOf, owner, piece.listed ? 1 : 0);
  }

  const follows = await followTotals();
  const members = [...new Set([...listedOf.keys(), ...follows.keys()])].map((id) => new Types.ObjectId(id));
  const owners = await userReads.many<Pick<UserDoc, '_id' | 'followersCount' | 'followingsCount' | 'trendScore' | 'contentsCount'>>(
    ours({
      $or: [
        { _id: anyOf(members) },
        { trendScore: { $gt: 0 } },
        { contentsCount: { $ne: 0 } },
        { followersCount: { $ne: 0 } },
        { followingsCount: { $ne: 0 } },
      ],
    }),
    { projection: { followersCount: 1, followingsCount: 1, trendScore: 1, contentsCount: 1 } },
  );
  const followersOf = (id: string) => follows.get(id)?.followersCount ?? 0;

  const contentUpdates: { contentId: Types.ObjectId; totals: PieceTotals }[] = [];
  for (const piece of pieces) {
    const id = String(piece._id);
    const kept = { reactedCount: reacted.get(id) ?? 0, commentsCount: comments.get(id) ?? 0, trendScore: week.get(id) ?? 0, playCount: plays.get(id) ?? 0 };
    const radarScore = radarScoreOf(piece.uploadedAt, followersOf(String(piece.ownerId)), kept.trendScore, now);
    const same =
      kept.reactedCount === piece.reactedCount &&
      kept.commentsCount === (piece.commentsCount ?? 0) &&
      kept.trendScore === piece.trendScore &&
      kept.playCount === (piece.playCount ?? 0) &&
      radarScore === piece.radarScore;
    if (!same) contentUpdates.push({ contentId: piece._id, totals: { ...kept, radarScore } });
  }
  await setPieceTotals(contentUpdates);

  const userUpdates: { userId: Types.ObjectId; totals: MemberTotals }[] = [];
  for (const user of owners) {
    const id = String(user._id);
    const kept = {
      trendScore: ownerWeek.get(id) ?? 0,
      contentsCount: listedOf.get(id) ?? 0,
      followersCount: followersOf(id),
      followingsCount: follows.get(id)?.followingsCount ?? 0,
    };
    const same =
      kept.trendScore === user.trendScore &&
      kept.contentsCount === user.contentsCount &&
      kept.followersCount === user.followersCount &&
      kept.followingsCount === user.followingsCount;
    if (!same) userUpdates.push({ userId: user._id, totals: kept });
  }
  await setMemberTotals(userUpdates);

  const days = await refreshReactionDays(perDay, ownerOf);
  // The ranked lists the feeds page by key, from the totals just set.
  const lists = await buildFeedLists();
  publicPages.clear();
  return { contents: contentUpdates.length, users: userUpdates.length, days, lists: lists.lists };
}

/** Makes the reactions-per-day documents match the knack entries' days (`perDay`: `{contentId}:{day}` -> count). */
async function refreshReactionDays(perDay: Map<string, number>, ownerOf: Map<string, string>): Promise<number> {
  const kept = new Map((await ReactionDayModel.find({}, { count: 1 }).lean<Pick<ReactionDayDoc, '_id' | 'count'>[]>()).map((day) => [day._id, day.count]));
  const updates: AnyBulkWriteOperation<ReactionDayDoc>[] = [];
  for (const [dayId, count] of perDay) {
    if (kept.get(dayId) === count) continue;
    const [contentId, day] = dayId.split(':') as [string, string];
    const fields = { contentId: new Types.ObjectId(contentId), ownerId: new Types.ObjectId(ownerOf.get(contentId)!), day, count };
    updates.push({ updateOne: { filter: { _id: dayId }, update: { $set: fields }, upsert: true } });
  }
  for (const dayId of kept.keys()) if (!perDay.has(dayId)) updates.push({ deleteOne: { filter: { _id: dayId } } });
  if (updates.length) await ReactionDayModel.bulkWrite(updates, { ordered: false });
  return updates.length;
}
