/**
 * The follower and following lists and their counts, kept by key so that no request reads the `follows` collection
 * by anything but `_id`.
 *
 * Each member has two numbered chains of events (follows.model.ts): `followers:{id}` and `followings:{id}`. A follow
 * appends a `followed` event to the followed member's followers chain and to the follower's followings chain; an
 * unfollow appends `unfollowed` events. Only the call that won the follow document's insert (or its delete: of two
 * deletes at once one deletes it) appends, so each change is in each chain once, and each event holds the count after
 * it: a count is the chain's last event, exact whatever ran at once in however many processes. A kept head per chain
 * (its number and count as of a recent event) lets a process that has not seen the chain find its end in a few reads.
 *
 * A list is read from the chain's end down: a `followed` event is shown while the follow it names (same pair, same
 * instance) is still there, one read by `_id`; an unfollow, or an older follow of a pair followed again, is skipped.
 * A page reads at most MAX_EVENTS_PER_PAGE events: past a long run of unfollows it answers a shorter page with a
 * cursor to go on from.
 *
 * The members' `followersCount` and `followingsCount` (which feeds sort on) are set from the chains' counts after each
 * event, and set again if the chain moved on meanwhile; an update can still be lost on the embedded database, so the
 * rankings job and the follow-lists rebuild set them from the facts.
 */
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { numberedChains, type ChainEnd } from '../../lib/numbered-chain';
import { insertWhole, readById } from '../../lib/query';
import { setFollowTotals } from '../users';
import {
  FollowEventModel,
  FollowHeadModel,
  followKey,
  FollowModel,
  type FollowDoc,
  type FollowEventDoc,
  type FollowHeadDoc,
  type FollowSide,
} from './follows.model';

/** Events one page of a list reads at most, however many of them are unfollows. */
export const MAX_EVENTS_PER_PAGE = 250;

type Tip = Pick<FollowEventDoc, 'count'>;
type NewEvent = Omit<FollowEventDoc, '_id' | 'count'>;

const chains = numberedChains<Tip>(FollowEventModel, { separator: '#', projection: { count: 1 } });

/** Forgets the list ends this process knows, for tests that empty the collections under a running app. */
export const forgetFollowLists = chains.forget;

export const listName = (side: FollowSide, userId: string) => `${side}:${userId}`;
export const eventId = (side: FollowSide, userId: string, n: number) => chains.idOf(listName(side, userId), n);

/** The exact end of a member's list: from what this process knows, else from the kept head, then forward. */
export async function listEnd(side: FollowSide, userId: string): Promise<ChainEnd<Tip>> {
  const chain = listName(side, userId);
  if ((await chains.end(chain, false)).n > 0) return chains.end(chain, true);
  const head = await readById<FollowHeadDoc>(FollowHeadModel, chain, { n: 1, count: 1 });
  return chains.end(chain, true, head && head.n > 0 ? { n: head.n, doc: { count: head.count } } : undefined);
}

/** A list's count as the API shows it (a count below 0 can only come of a lost event, which the rebuild mends). */
export const countOf = (end: ChainEnd<Tip>) => Math.max(0, end.doc?.count ?? 0);

/**
 * Appends an event to a member's list, its count the previous event's plus `delta` (or `setCount` for a recount),
 * whatever else is appended at once; then sets the list's head (best-effort).
 */
export async function appendListEvent(side: FollowSide, userId: string, event: NewEvent, delta: number, setCount?: number): Promise<ChainEnd<Tip>> {
  const chain = listName(side, userId);
  if ((await chains.end(chain, false)).n === 0) await listEnd(side, userId);
  const { n, doc } = await chains.append(chain, (_n, previous) => ({ ...event, count: setCount ?? (previous.doc?.count ?? 0) + delta }));
  await FollowHeadModel.collection.updateOne({ _id: chain as never }, { $set: { n, count: doc.count } }, { upsert: true });
  return { n, doc };
}

/** The members' kept totals from their lists' counts, set again from a later end should one have come meanwhile. */
async function setUserTotals(followedId: string, followersEnd: ChainEnd<Tip>, followerId: string, followingsEnd: ChainEnd<Tip>): Promise<void> {
  const followed = new Types.ObjectId(followedId);
  const follower = new Types.ObjectId(followerId);
  await setFollowTotals([
    { userId: followed, followersCount: countOf(followersEnd) },
    { userId: follower, followingsCount: countOf(followingsEnd) },
  ]);
  // An event appended meanwhile may have set its count before this call set an older one: read past the ends once
  // more and set what moved on (the later appender's own check runs after its set, so the last set is the newest).
  const [followersNow, followingsNow] = await Promise.all([listEnd('followers', followedId), listEnd('followings', followerId)]);
  const again = [
    ...(followersNow.n > followersEnd.n ? [{ userId: followed, followersCount: countOf(followersNow) }] : []),
    ...(followingsNow.n > followingsEnd.n ? [{ userId: follower, followingsCount: countOf(followingsNow) }] : []),
  ];
  if (again.length) await setFollowTotals(again);
}

/** The events of one follow change, in both members' lists, and the members' kept totals after them. */
async function appendChange(kind: 'followed' | 'unfollowed', followerId: string, followedId: string, instance: string | null, at: Date): Promise<void> {
  const delta = kind === 'followed' ? 1 : -1;
  const [followersEnd, followingsEnd] = await Promise.all([
    appendListEvent('followers', followedId, { kind, other: new Types.ObjectId(followerId), instance, at }, delta),
    appendListEvent('followings', followerId, { kind, other: new Types.ObjectId(followedId), instance, at }, delta),
  ]);
  await setUserTotals(followedId, followersEnd, followerId, followingsEnd);
}

/** Makes `followerId` follow `followedId`: true when this call made the follow, false when it was there already. */
export async function recordFollow(followerId: string, followedId: string, at: Date): Promise<boolean> {
  const instance = randomBytes(8).toString('hex');
  const follow: FollowDoc = {
    _id: followKey(followerId, followedId),
    followerId: new Types.ObjectId(followerId),
    followedId: new Types.ObjectId(followedId),
    at,
    instance,
  };
  try {
    await insertWhole(FollowModel, follow);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return false;
  }
  await appendChange('followed', followerId, followedId, instance, at);
  return true;
}

/** Ends the follow of `followerId` of `followedId`: true when this call deleted it, false when there was none. */
export async function recordUnfollow(followerId: string, followedId: string, at: Date): Promise<boolean> {
  const _id = followKey(followerId, followedId);
  const follow = await readById<Pick<FollowDoc, 'instance'>>(FollowModel, _id, { instance: 1 });
  if (!follow) return false;
  const { deletedCount } = await FollowModel.collection.deleteOne({ _id: _id as never });
  if (!deletedCount) return false; // another call deleted it at once, and appends its events
  await appendChange('unfollowed', followerId, followedId, follow.instance ?? null, at);
  return true;
}

/** A member's two counts, each its list's last event. */
export async function listCounts(userId: string): Promise<{ followersCount: number; followingsCount: number }> {
  const [followers, followings] = await Promise.all([listEnd('followers', userId), listEnd('followings', userId)]);
  return { followersCount: countOf(followers), followingsCount: countOf(followings) };
}

/** Whether the follow an event names is still there (the same pair, the same instance). */
async function stillFollowing(side: FollowSide, userId: string, event: FollowEventDoc): Promise<boolean> {
  if (event.kind !== 'followed' || !event.other) return false;
  const other = String(event.other);
  const follow = await readById<Pick<FollowDoc, 'instance'>>(FollowModel, side === 'followers' ? followKey(other, userId) : followKey(userId, other), {
    instance: 1,
  });
  return Boolean(follow) && (follow!.instance ?? null) === (event.instance ?? null);
}

/**
 * One page of a member's list, the latest follow first: the other members' ids, and the number to go on below (null
 * at the list's start). `below` is where the previous page stopped (none: the list's end).
 */
export async function listPage(
  side: FollowSide,
  userId: string,
  below: number | null,
  size: number,
): Promise<{ others: Types.ObjectId[]; numbers: number[]; below: number | null }> {
  const start = below ?? (await listEnd(side, userId)).n + 1;
  const others: Types.ObjectId[] = [];
  const found: number[] = [];
  let next = start - 1; // the next number to read
  while (next >= 1 && others.length < size && start - 1 - next < MAX_EVENTS_PER_PAGE) {
    const numbers = Array.from({ length: Math.min(size, next, MAX_EVENTS_PER_PAGE - (start - 1 - next)) }, (_, i) => next - i);
    const events = await Promise.all(numbers.map((n) => readById<FollowEventDoc>(FollowEventModel, eventId(side, userId, n))));
    const live = await Promise.all(events.map(async (event) => Boolean(event) && (await stillFollowing(side, userId, event!))));
    for (let i = 0; i < numbers.length; i += 1) {
      next = numbers[i]! - 1;
      if (live[i]) {
        others.push(events[i]!.other!);
        found.push(numbers[i]!);
      }
      if (others.length === size) break;
    }
  }
  return { others, numbers: found, below: next >= 1 ? next + 1 : null };
}

/** A member `userId` follows, named by the number of its event in their followings list. */
export interface Followed {
  memberId: Types.ObjectId;
  /** The number of the `followed` event in the follower's followings list: a short, lasting name for this follow. */
  event: number;
}

/**
 * Up to `max` members `userId` follows, the latest followed first (one bounded page of their followings list), for
 * lists that read what those members wrote (the comment feed).
 */
export async function latestFollowed(userId: string, max: number): Promise<Followed[]> {
  const page = await listPage('followings', userId, null, max);
  return page.others.map((memberId, i) => ({ memberId, event: page.numbers[i]! }));
}

/** The members named by followed events of `userId`'s followings list that `userId` still follows (the rest left out). */
export async function stillFollowed(userId: string, events: number[]): Promise<Followed[]> {
  const docs = await Promise.all(events.map((n) => readById<FollowEventDoc>(FollowEventModel, eventId('followings', userId, n))));
  const live = await Promise.all(docs.map(async (doc) => Boolean(doc) && (await stillFollowing('followings', userId, doc!))));
  return events.flatMap((event, i) => (live[i] ? [{ memberId: docs[i]!.other!, event }] : []));
}
