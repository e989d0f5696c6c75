/**
 * Follows: a member follows or unfollows another, and the lists and counts of who follows whom. Counts are counted
 * from the follow documents, so they are exact whatever ran at once; the members' kept totals (which the feeds rank
 * on) are set from those counts after each change.
 */
import { Types } from 'mongoose';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { AuthContext } from '../../lib/auth-context';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { afterNewest, decodeNewestCursor, NEWEST_FIRST, newestPage } from '../../lib/newest-first';
import { anyOf, insertWhole, ours, readById } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import { hasBlocked } from '../messages';
import { setFollowTotals, toPublicUserDto, userReads, type UserDoc } from '../users';
import { FollowModel, followKey, type FollowDoc } from './follows.model';
import type { Schemas } from '../../lib/openapi-types';

export const FOLLOW_MESSAGES = {
  forSelf: 'You can only follow for yourself.',
  notYourList: 'You can only see this list as yourself.',
  self: 'You cannot follow yourself.',
  noMember: 'This member does not exist.',
  tooMany: 'Too many follow changes. Please try again in a minute.',
  removeSelf: 'You are not one of your followers.',
  blockedByThem: 'This member does not accept you as a follower.',
  blockedByYou: 'You blocked this member. Unblock them to follow them.',
} as const;

/** Follow changes per member: a person clicking, not a script walking the member list. */
export const FOLLOW_LIMIT = { max: 120, windowMs: 60_000 };
const MAX_PAGE = 50;

type Counts = Schemas['FollowCounts'];
type Page = Schemas['FollowPage'];

async function countsOf(userId: Types.ObjectId): Promise<Counts> {
  const [followersCount, followingsCount] = await Promise.all([
    FollowModel.countDocuments({ followedId: userId }),
    FollowModel.countDocuments({ followerId: userId }),
  ]);
  return { followersCount, followingsCount };
}

async function existingMember(id: string): Promise<Types.ObjectId> {
  const _id = new Types.ObjectId(id);
  if (!(await userReads.exists({ _id, isActive: true }))) throw notFound(FOLLOW_MESSAGES.noMember);
  return _id;
}

/** Sets the kept totals of a follow's two members from the follows, and answers their counts. */
async function settleTotals(followed: Types.ObjectId, follower: Types.ObjectId): Promise<{ followed: Counts; follower: Counts }> {
  const [followedCounts, followerCounts] = await Promise.all([countsOf(followed), countsOf(follower)]);
  await setFollowTotals([
    { userId: followed, followersCount: followedCounts.followersCount },
    { userId: follower, followingsCount: followerCounts.followingsCount },
  ]);
  return { followed: followedCounts, follower: followerCounts };
}

/** The refusal of a follow while either member blocks the other (two reads by the blocks' keys); null when neither does. */
async function blockedFollow(followerId: string, followedId: string): Promise<AppError | null> {
  const [byThem, byMe] = await Promise.all([hasBlocked(followedId, followerId), hasBlocked(followerId, followedId)]);
  if (byThem) return new AppError(403, 'forbidden', FOLLOW_MESSAGES.blockedByThem);
  if (byMe) return new AppError(409, 'conflict', FOLLOW_MESSAGES.blockedByYou);
  return null;
}

export async function makeFollowing(caller: AuthContext, request: { subjectorId: string; myuserId: string; set: boolean }, now = new Date()) {
  if (request.myuserId !== caller.userId) throw new AppError(403, 'forbidden', FOLLOW_MESSAGES.forSelf);
  if (request.subjectorId === caller.userId) throw badRequest(FOLLOW_MESSAGES.self, [{ path: 'subjectorId', message: FOLLOW_MESSAGES.self }]);
  await consumeLimit(`follow:${caller.userId}`, FOLLOW_LIMIT, FOLLOW_MESSAGES.tooMany, now);
  const followed = await existingMember(request.subjectorId);
  const follower = new Types.ObjectId(caller.userId);
  const _id = followKey(caller.userId, request.subjectorId);
  if (request.set) {
    const refused = await blockedFollow(caller.userId, request.subjectorId);
    if (refused) throw refused;
    await insertWhole(FollowModel, { _id, followerId: follower, followedId: followed, at: now }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err; // already following: nothing to change
    });
    // A block made meanwhile may have ended the follows between the two before this one was there: looked for again
    // now that it is, and then this follow goes too. (The block is inserted before its follows are ended, so one of
    // the two always sees the other.)
    const blockedMeanwhile = await blockedFollow(caller.userId, request.subjectorId);
    if (blockedMeanwhile) {
      await FollowModel.deleteOne({ _id });
      await settleTotals(followed, follower);
      throw blockedMeanwhile;
    }
  } else {
    await FollowModel.deleteOne({ _id });
  }
  const counts = await settleTotals(followed, follower);
  const isFollowing = Boolean(await FollowModel.exists({ _id }));
  return { isFollowing, subjector: counts.followed, me: counts.follower };
}

/**
 * The caller takes a member off their followers: that member's follow is deleted (and with it their access to the
 * caller's pieces shown to followers). They may follow again; a block is what keeps them out. Removing someone who
 * does not follow changes nothing.
 */
export async function removeFollower(caller: AuthContext, followerId: string, now = new Date()): Promise<Schemas['FollowerRemoved']> {
  if (followerId === caller.userId) throw badRequest(FOLLOW_MESSAGES.removeSelf, [{ path: 'id', message: FOLLOW_MESSAGES.removeSelf }]);
  await consumeLimit(`follow:${caller.userId}`, FOLLOW_LIMIT, FOLLOW_MESSAGES.tooMany, now);
  const follower = await existingMember(followerId);
  await FollowModel.deleteOne({ _id: followKey(followerId, caller.userId) });
  const counts = await settleTotals(new Types.ObjectId(caller.userId), follower);
  return { isFollower: false, follower: counts.follower, me: counts.followed };
}

/**
 * Ends the follows between two members, both ways (a block: neither follows the other any more), and sets their kept
 * totals from what is left. Safe to repeat.
 */
export async function endFollowsBetween(memberId: string, otherId: string): Promise<void> {
  // One delete by `_id` each (an `$in` would scan the collection on the embedded database).
  await Promise.all([FollowModel.deleteOne({ _id: followKey(memberId, otherId) }), FollowModel.deleteOne({ _id: followKey(otherId, memberId) })]);
  const [member, other] = [new Types.ObjectId(memberId), new Types.ObjectId(otherId)];
  const [memberCounts, otherCounts] = await Promise.all([countsOf(member), countsOf(other)]);
  await setFollowTotals([
    { userId: member, ...memberCounts },
    { userId: other, ...otherCounts },
  ]);
}

/** A member's counts, and whether the viewer follows them (read by the follow's key). */
export async function followCounts(id: string, viewer?: AuthContext): Promise<Schemas['FollowCountsView']> {
  const member = await existingMember(id);
  const [counts, follow] = await Promise.all([countsOf(member), viewer ? readById(FollowModel, followKey(viewer.userId, id), { _id: 1 }) : null]);
  return { ...counts, isFollowing: Boolean(follow) };
}

/**
 * One page of `userId`'s followers (`side: 'followers'`) or followings, the latest follow first. Each entry says
 * whether the viewer follows that member (read by the follow's key) and whether it is the viewer.
 */
export async function followPage(
  side: 'followers' | 'followings',
  userId: string,
  viewerId: string,
  caller: AuthContext | undefined,
  cursor?: string,
  limit = 20,
): Promise<Page> {
  if (caller && caller.userId !== viewerId) throw new AppError(403, 'forbidden', FOLLOW_MESSAGES.notYourList);
  const member = await existingMember(userId);
  const size = Math.min(Math.max(limit, 1), MAX_PAGE);
  const mine = side === 'followers' ? 'followedId' : 'followerId';
  const list = `${side}:${userId}`;
  const rows = await FollowModel.find(ours({ [mine]: member, ...afterNewest(decodeNewestCursor(list, cursor)) }))
    .sort(NEWEST_FIRST)
    .limit(size + 1)
    .lean<FollowDoc[]>();
  const { items: page, nextCursor } = newestPage(list, rows, size);
  const otherIds = page.map((row) => (side === 'followers' ? row.followerId : row.followedId));
  const viewer = caller?.userId;
  // The viewer's follow of each entry is read by its key: a filter on `_id` alone is the one that uses an index on
  // the embedded database (an `$in` would scan the collection).
  const [users, followedByViewer] = await Promise.all([
    otherIds.length ? userReads.many<UserDoc>({ _id: anyOf(otherIds) }) : [],
    Promise.all(otherIds.map(async (id) => (viewer ? Boolean(await readById(FollowModel, followKey(viewer, String(id)), { _id: 1 })) : false))),
  ]);
  const byId = new Map(users.map((user) => [String(user._id), user]));
  const entries = otherIds.flatMap((id, index) => {
    const user = byId.get(String(id));
    if (!user) return []; // an account deleted since
    return [{ user: toPublicUserDto(user), isFollowing: followedByViewer[index]!, isMe: String(id) === viewer }];
  });
  return { entries, nextCursor };
}

/** Whether `followerId` follows `followedId` (one read by the follow's key). */
export const isFollower = async (followerId: string, followedId: string) => Boolean(await readById(FollowModel, followKey(followerId, followedId), { _id: 1 }));

/** The members `userId` follows. */
export async function followedIds(userId: string): Promise<Types.ObjectId[]> {
  const rows = await FollowModel.find({ followerId: new Types.ObjectId(userId) }, { followedId: 1 }).lean<Pick<FollowDoc, 'followedId'>[]>();
  return rows.map((row) => row.followedId);
}

/**
 * Which of `followerIds` follow which of `followedIds`: follower id -> the followed ids among those. A job's page of
 * members at a time (the weekly digest), so that what it holds stays that page's follows.
 */
export async function followsAmong(followerIds: Types.ObjectId[], followedIds: Types.ObjectId[]): Promise<Map<string, string[]>> {
  const among = new Map<string, string[]>();
  if (!followerIds.length || !followedIds.length) return among;
  const rows = await FollowModel.find({ followerId: anyOf(followerIds), followedId: anyOf(followedIds) }, { followerId: 1, followedId: 1 }).lean<
    Pick<FollowDoc, 'followerId' | 'followedId'>[]
  >();
  for (const row of rows) among.set(String(row.followerId), [...(among.get(String(row.followerId)) ?? []), String(row.followedId)]);
  return among;
}

/**
 * Records follows that no member's request made (the demo catalogue's listeners), keeping any that exist, then sets
 * the kept totals of every member in them from the follow documents, as a follow through the API does.
 */
export async function recordFollows(pairs: { followerId: Types.ObjectId; followedId: Types.ObjectId }[], at = new Date()): Promise<void> {
  if (!pairs.length) return;
  await FollowModel.bulkWrite(
    pairs.map(({ followerId, followedId }) => {
      // An insert takes its `_id` from the filter.
      const filter = { _id: followKey(String(followerId), String(followedId)) };
      return { updateOne: { filter, update: { $setOnInsert: { followerId, followedId, at } }, upsert: true } };
    }),
    { ordered: false },
  );
  const totals = await followTotals();
  const members = new Set(pairs.flatMap(({ followerId, followedId }) => [String(followerId), String(followedId)]));
  await setFollowTotals([...members].map((id) => ({ userId: new Types.ObjectId(id), ...(totals.get(id) ?? { followersCount: 0, followingsCount: 0 }) })));
}

/** Every member's follow counts, counted from the follows (the rankings job repairs the kept totals from them). */
export async function followTotals(): Promise<Map<string, Counts>> {
  const totals = new Map<string, Counts>();
  const of = (id: Types.ObjectId) => {
    const key = String(id);
    let counts = totals.get(key);
    if (!counts) totals.set(key, (counts = { followersCount: 0, followingsCount: 0 }));
    return counts;
  };
  for (const follow of await FollowModel.find({}, { followerId: 1, followedId: 1 }).lean<Pick<FollowDoc, 'followerId' | 'followedId'>[]>()) {
    of(follow.followedId).followersCount += 1;
    of(follow.followerId).followingsCount += 1;
  }
  return totals;
}
