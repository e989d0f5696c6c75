/**
 * Follows: a member follows or unfollows another, and the lists and counts of who follows whom. The counts and lists
 * are read from each member's chains of follow events (follows.lists.ts), by `_id` only; the members' kept totals
 * (which the feeds rank on) are set from those counts after each change.
 */
import { Types } from 'mongoose';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { AuthContext } from '../../lib/auth-context';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import { anyOf, readById } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import { hasBlocked } from '../messages';
import { setFollowTotals, toPublicUserDto, userReads, type UserDoc } from '../users';
import { FollowModel, followKey, type FollowDoc } from './follows.model';
import { listCounts, listPage, recordFollow, recordUnfollow, settleUserTotals, type ListPlace } from './follows.lists';
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

/** The member, read by `_id` (a filter with `isActive` too would scan the members on the embedded database). */
async function existingMember(id: string): Promise<Types.ObjectId> {
  const _id = new Types.ObjectId(id);
  const member = await userReads.byId<Pick<UserDoc, 'isActive'>>(_id, { isActive: 1 });
  if (!member?.isActive) throw notFound(FOLLOW_MESSAGES.noMember);
  return _id;
}

/**
 * The counts of a follow's two members after a follow call, each read from its lists' ends; their kept totals are set
 * from them again (follows.lists.ts, settleUserTotals), so that a call that changed nothing (already following) still
 * mends a total that a set landing out of order left behind.
 */
const countsOfPair = (followedId: string, followerId: string) => settleUserTotals(followedId, followerId);

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
  const followed = String(await existingMember(request.subjectorId));
  const follower = caller.userId;
  if (request.set) {
    const refused = await blockedFollow(follower, followed);
    if (refused) throw refused;
    await recordFollow(follower, followed, now); // false: already following, nothing to change
    // A block made meanwhile may have ended the follows between the two before this one was there: looked for again
    // now that it is, and then this follow goes too. (The block is inserted before its follows are ended, so one of
    // the two always sees the other.)
    const blockedMeanwhile = await blockedFollow(follower, followed);
    if (blockedMeanwhile) {
      await recordUnfollow(follower, followed, now);
      throw blockedMeanwhile;
    }
  } else {
    await recordUnfollow(follower, followed, now);
  }
  const [counts, follow] = await Promise.all([countsOfPair(followed, follower), readById(FollowModel, followKey(follower, followed), { _id: 1 })]);
  return { isFollowing: Boolean(follow), subjector: counts.followed, me: counts.follower };
}

/**
 * The caller takes a member off their followers: that member's follow is deleted (and with it their access to the
 * caller's pieces shown to followers). They may follow again; a block is what keeps them out. Removing someone who
 * does not follow changes nothing.
 */
export async function removeFollower(caller: AuthContext, followerId: string, now = new Date()): Promise<Schemas['FollowerRemoved']> {
  if (followerId === caller.userId) throw badRequest(FOLLOW_MESSAGES.removeSelf, [{ path: 'id', message: FOLLOW_MESSAGES.removeSelf }]);
  await consumeLimit(`follow:${caller.userId}`, FOLLOW_LIMIT, FOLLOW_MESSAGES.tooMany, now);
  const follower = String(await existingMember(followerId));
  await recordUnfollow(follower, caller.userId, now);
  const counts = await countsOfPair(caller.userId, follower);
  return { isFollower: false, follower: counts.follower, me: counts.followed };
}

/** Ends the follows between two members, both ways (a block: neither follows the other any more). Safe to repeat. */
export async function endFollowsBetween(memberId: string, otherId: string, now = new Date()): Promise<void> {
  await Promise.all([recordUnfollow(memberId, otherId, now), recordUnfollow(otherId, memberId, now)]);
}

/** A member's counts, and whether the viewer follows them (read by the follow's key). */
export async function followCounts(id: string, viewer?: AuthContext): Promise<Schemas['FollowCountsView']> {
  await existingMember(id);
  const [counts, follow] = await Promise.all([listCounts(id), viewer ? readById(FollowModel, followKey(viewer.userId, id), { _id: 1 }) : null]);
  return { ...counts, isFollowing: Boolean(follow) };
}

/** A follow list's place in a cursor: `{copy}.{below}.{floor}` in base 36 (follows.lists.ts, ListPlace). */
const encodePlace = ({ copy, below, floor }: ListPlace) => [copy, below, floor].map((n) => n.toString(36)).join('.');

const acceptPlace =
  (userId: string) =>
  (key: unknown, id: unknown): ListPlace | null => {
    if (typeof key !== 'string' || id !== userId) return null;
    const numbers = key.split('.').map((part) => parseInt(part, 36));
    if (numbers.length !== 3 || !numbers.every((n) => Number.isSafeInteger(n) && n >= 0)) return null;
    const [copy, below, floor] = numbers as [number, number, number];
    return below >= 1 ? { copy, below, floor } : null;
  };

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
  await existingMember(userId);
  const size = Math.min(Math.max(limit, 1), MAX_PAGE);
  const list = `${side}:${userId}`;
  const page = await listPage(side, userId, decodePageCursor(list, cursor, acceptPlace(userId)), size);
  const viewer = caller?.userId;
  // Each member and the viewer's follow of each by `_id`: the one filter the embedded database serves from an index
  // (an `$in` would scan the collection).
  const [users, followedByViewer] = await Promise.all([
    Promise.all(page.others.map((id) => userReads.byIdShared<UserDoc>(id))),
    Promise.all(page.others.map(async (id) => (viewer ? Boolean(await readById(FollowModel, followKey(viewer, String(id)), { _id: 1 })) : false))),
  ]);
  const entries = page.others.flatMap((id, index) => {
    const user = users[index];
    if (!user) return []; // an account deleted since
    return [{ user: toPublicUserDto(user), isFollowing: followedByViewer[index]!, isMe: String(id) === viewer }];
  });
  return { entries, nextCursor: page.place ? encodePageCursor(list, encodePlace(page.place), userId) : null };
}

/** Whether `followerId` follows `followedId` (one read by the follow's key). */
export const isFollower = async (followerId: string, followedId: string) => Boolean(await readById(FollowModel, followKey(followerId, followedId), { _id: 1 }));

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
 * Records follows that no member's request made (the demo catalogue's listeners), keeping any that exist, each as a
 * follow through the API is recorded (its events in both members' lists, their kept totals).
 */
export async function recordFollows(pairs: { followerId: Types.ObjectId; followedId: Types.ObjectId }[], at = new Date()): Promise<void> {
  // A few at once: follows of one member at once take turns in their list (each number is taken by one insert).
  for (let i = 0; i < pairs.length; i += 8) {
    await Promise.all(
      pairs.slice(i, i + 8).map(({ followerId, followedId }) => recordFollow(String(followerId), String(followedId), at, { settleTotals: false })),
    );
  }
  // Totals set at once on one member's document can land out of order on the embedded database: set once more from
  // the lists' ends, now that nothing else moves them.
  const members = [...new Set(pairs.flatMap(({ followerId, followedId }) => [String(followerId), String(followedId)]))];
  const counts = await Promise.all(members.map(async (id) => ({ userId: new Types.ObjectId(id), ...(await listCounts(id)) })));
  await setFollowTotals(counts);
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
