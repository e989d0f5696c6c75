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
 * cursor to go on from. So that such runs stay short, a list whose reading costs more than twice its count (plus
 * COPY_SLACK) is compacted after an unfollow: the follows it holds are copied, in order, as of its last event, and
 * readers then read the events after that one and then the copy. A copy costs the reads of the events since the
 * last one, which the unfollows that made it due paid for many times over.
 *
 * The members' `followersCount` and `followingsCount` (which feeds sort on) are set from the chains' counts after each
 * event, and set again if the chain moved on meanwhile; an update can still be lost on the embedded database, so the
 * rankings job and the follow-lists rebuild set them from the facts.
 */
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { numberedChains, type ChainEnd } from '../../lib/numbered-chain';
import { insertWhole, keepHint, readById } from '../../lib/query';
import { setFollowTotals, userReads, type UserDoc } from '../users';
import {
  FollowCopyItemModel,
  FollowCopyPointerModel,
  FollowEventModel,
  FollowHeadModel,
  followKey,
  FollowModel,
  type FollowCopyItemDoc,
  type FollowCopyPointerDoc,
  type FollowDoc,
  type FollowEventDoc,
  type FollowHeadDoc,
  type FollowSide,
} from './follows.model';
import { followChanges, markFollowChange } from './follows.pending';

/** Events one page of a list reads at most, however many of them are unfollows. */
export const MAX_EVENTS_PER_PAGE = 250;

type Tip = Pick<FollowEventDoc, 'count'>;
type Counts = { followersCount: number; followingsCount: number };
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
  await keepHint(FollowHeadModel, chain, { n, count: doc.count });
  return { n, doc };
}

/** Rounds of setting and reading back the members' totals before leaving them to the repairs. */
const TOTAL_ROUNDS = 3;

/**
 * Sets the kept totals of a follow's two members (`followersCount` of the followed, `followingsCount` of the follower)
 * from their lists' counts, and reads them back: on the embedded database an update rewrites the whole document
 * without isolation, so a set made at once by another change (of these totals or of another field of the member)
 * can land over this one. A few rounds of set-then-read end right unless the member is changed without pause; what
 * is still wrong then is mended by the rankings job and the follow-lists rebuild, which set them from the follows.
 */
export async function settleUserTotals(followedId: string, followerId: string): Promise<{ followed: Counts; follower: Counts }> {
  const followed = new Types.ObjectId(followedId);
  const follower = new Types.ObjectId(followerId);
  let counts: { followed: Counts; follower: Counts } | null = null;
  for (let round = 0; round < TOTAL_ROUNDS; round += 1) {
    const [followedCounts, followerCounts] = await Promise.all([listCounts(followedId), listCounts(followerId)]);
    counts = { followed: followedCounts, follower: followerCounts };
    await setFollowTotals([
      { userId: followed, followersCount: followedCounts.followersCount },
      { userId: follower, followingsCount: followerCounts.followingsCount },
    ]);
    const [followedNow, followerNow, followedAfter, followerAfter] = await Promise.all([
      userReads.byId<Pick<UserDoc, 'followersCount'>>(followed, { followersCount: 1 }),
      userReads.byId<Pick<UserDoc, 'followingsCount'>>(follower, { followingsCount: 1 }),
      listCounts(followedId),
      listCounts(followerId),
    ]);
    const settled =
      (followedNow?.followersCount ?? 0) === followedAfter.followersCount && (followerNow?.followingsCount ?? 0) === followerAfter.followingsCount;
    counts = { followed: followedAfter, follower: followerAfter };
    if (settled || !followedNow || !followerNow) break;
  }
  return counts!;
}

/** The events of one follow change, in both members' lists, and the members' kept totals after them. */
async function appendChange(
  kind: 'followed' | 'unfollowed',
  followerId: string,
  followedId: string,
  instance: string | null,
  at: Date,
  settle = true,
): Promise<void> {
  faultPoint(FAULT_POINTS.followAfterFact);
  const delta = kind === 'followed' ? 1 : -1;
  const [followersEnd, followingsEnd] = await Promise.all([
    appendListEvent('followers', followedId, { kind, other: new Types.ObjectId(followerId), instance, at }, delta),
    appendListEvent('followings', followerId, { kind, other: new Types.ObjectId(followedId), instance, at }, delta),
  ]);
  if (settle) await settleUserTotals(followedId, followerId);
  if (kind === 'unfollowed') {
    compactIfDue('followers', followedId, followersEnd);
    compactIfDue('followings', followerId, followingsEnd);
  }
}

/**
 * Makes `followerId` follow `followedId`: true when this call made the follow, false when it was there already.
 * `settleTotals: false` leaves the members' kept totals to the caller (a batch that sets them once at its end).
 */
export async function recordFollow(followerId: string, followedId: string, at: Date, { settleTotals = true } = {}): Promise<boolean> {
  const instance = randomBytes(8).toString('hex');
  const follow: FollowDoc = {
    _id: followKey(followerId, followedId),
    followerId: new Types.ObjectId(followerId),
    followedId: new Types.ObjectId(followedId),
    at,
    instance,
  };
  const mark = await markFollowChange('followed', followerId, followedId, instance, at);
  try {
    await insertWhole(FollowModel, follow);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await followChanges.clear(mark); // already following: this call's instance names nothing
    return false;
  }
  await appendChange('followed', followerId, followedId, instance, at, settleTotals);
  await followChanges.clear(mark);
  return true;
}

/** Ends the follow of `followerId` of `followedId`: true when this call deleted it, false when there was none. */
export async function recordUnfollow(followerId: string, followedId: string, at: Date): Promise<boolean> {
  const _id = followKey(followerId, followedId);
  const follow = await readById<Pick<FollowDoc, 'instance'>>(FollowModel, _id, { instance: 1 });
  if (!follow) return false;
  // Marked before the delete. Of two unfollows at once, the one that loses the delete leaves the mark (shared: it
  // names the same change) to the one that won, which clears it after its events.
  const mark = await markFollowChange('unfollowed', followerId, followedId, follow.instance ?? null, at);
  const { deletedCount } = await FollowModel.collection.deleteOne({ _id: _id as never });
  if (!deletedCount) return false; // another call deleted it at once, and appends its events
  await appendChange('unfollowed', followerId, followedId, follow.instance ?? null, at);
  await followChanges.clear(mark);
  return true;
}

/** A member's two counts, each its list's last event. */
export async function listCounts(userId: string): Promise<{ followersCount: number; followingsCount: number }> {
  const [followers, followings] = await Promise.all([listEnd('followers', userId), listEnd('followings', userId)]);
  return { followersCount: countOf(followers), followingsCount: countOf(followings) };
}

/** A followed member as a list holds it: from a `followed` event, or an item of a copy. */
type Listed = Pick<FollowEventDoc, 'other' | 'instance'> & { kind?: FollowEventDoc['kind'] };

/** Whether the follow a `followed` event or a copy's item names is still there (the same pair, the same instance). */
async function stillFollowing(side: FollowSide, userId: string, listed: Listed): Promise<boolean> {
  if ((listed.kind && listed.kind !== 'followed') || !listed.other) return false;
  const other = String(listed.other);
  const follow = await readById<Pick<FollowDoc, 'instance'>>(FollowModel, side === 'followers' ? followKey(other, userId) : followKey(userId, other), {
    instance: 1,
  });
  return Boolean(follow) && (follow!.instance ?? null) === (listed.instance ?? null);
}

/** A copy's items, `{side}:{userId}@{at}#{i}`. */
export const copyItemId = (chain: string, at: number, i: number) => `${chain}@${at}#${i}`;

/** Extra events a list may hold past twice its count before it is compacted. */
export const COPY_SLACK = 64;
const copying = new Set<string>();

/** Starts a compaction of the list when reading it would cost more than twice its count; not waited for. */
function compactIfDue(side: FollowSide, userId: string, end: ChainEnd<Tip>): void {
  const chain = listName(side, userId);
  if (copying.has(chain) || end.n <= 2 * countOf(end) + COPY_SLACK) return;
  copying.add(chain);
  // A copy that fails is only not used (readers read the events, as before it): the next unfollow tries again.
  void compactList(side, userId)
    .catch(() => undefined)
    .finally(() => copying.delete(chain));
}

/**
 * Compacts a member's list when due: copies the follows it holds as of its last event (the previous copy's, then the
 * events after it), then points readers at the copy. Safe at once in several processes: a copy is named by its event
 * number and its items by their places, so two copies of one point are the same, and any complete copy is right.
 * Answers the copy's event number (null when none was due).
 */
export async function compactList(side: FollowSide, userId: string, force = false): Promise<number | null> {
  const chain = listName(side, userId);
  const [end, pointer] = await Promise.all([listEnd(side, userId), readById<FollowCopyPointerDoc>(FollowCopyPointerModel, chain)]);
  const from = pointer?.at ?? 0;
  const reading = end.n - from + (pointer?.size ?? 0);
  if (!force && reading <= 2 * countOf(end) + COPY_SLACK) return null;
  const held: Listed[] = [];
  for (let i = 1; pointer && i <= pointer.size; i += 50) {
    const ids = Array.from({ length: Math.min(50, pointer.size - i + 1) }, (_, k) => copyItemId(chain, pointer.at, i + k));
    held.push(...(await Promise.all(ids.map((id) => readById<FollowCopyItemDoc>(FollowCopyItemModel, id)))).map((item) => item!));
  }
  for (let n = from + 1; n <= end.n; n += 50) {
    const numbers = Array.from({ length: Math.min(50, end.n - n + 1) }, (_, k) => n + k);
    for (const event of await Promise.all(numbers.map((k) => readById<FollowEventDoc>(FollowEventModel, eventId(side, userId, k))))) {
      if (event?.kind === 'followed') held.push(event);
      if (event?.kind === 'unfollowed') {
        // The follow it ends: the one of its instance (a follow made before instances were kept: the pair's).
        const same = (listed: Listed) => String(listed.other) === String(event.other);
        const byInstance = held.findIndex((listed) => same(listed) && event.instance !== null && listed.instance === event.instance);
        const gone = byInstance >= 0 ? byInstance : held.findIndex(same);
        if (gone >= 0) held.splice(gone, 1);
      }
    }
  }
  const items = held.map((listed, i) => ({ _id: copyItemId(chain, end.n, i + 1), other: listed.other!, instance: listed.instance ?? null }));
  for (let i = 0; i < items.length; i += 1_000) {
    await FollowCopyItemModel.collection.insertMany(items.slice(i, i + 1_000) as never[], { ordered: false }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err; // the same copy, made at once by another process
    });
  }
  // Only a later copy replaces the pointer (a late write of an earlier one would only cost readers some reads).
  const now = await readById<FollowCopyPointerDoc>(FollowCopyPointerModel, chain);
  if (!now || now.at < end.n) await keepHint(FollowCopyPointerModel, chain, { at: end.n, size: items.length });
  return end.n;
}

/** Where a page of a list starts: in its events (`copy` 0), or in the copy made at event `copy`; numbers below `below`. */
export interface ListPlace {
  copy: number;
  below: number;
  /** In the events: the copy whose event number they stop at (0: none), fixed when the list's first page was read. */
  floor: number;
}

/**
 * One page of a member's list, the latest follow first: the other members' ids (with their events' numbers, or minus
 * their places in the copy `copy`), and the place to go on from (null at the list's start). `place` is where the previous page stopped
 * (none: the list's end).
 */
export async function listPage(
  side: FollowSide,
  userId: string,
  place: ListPlace | null,
  size: number,
): Promise<{ others: Types.ObjectId[]; numbers: number[]; copy: number; place: ListPlace | null }> {
  const chain = listName(side, userId);
  let at = place;
  if (!at) {
    const [end, pointer] = await Promise.all([listEnd(side, userId), readById<FollowCopyPointerDoc>(FollowCopyPointerModel, chain, { at: 1 })]);
    at = { copy: 0, below: end.n + 1, floor: pointer?.at ?? 0 };
  }
  const copy = at.copy || at.floor;
  const others: Types.ObjectId[] = [];
  const found: number[] = [];
  let reads = 0;
  while (others.length < size && reads < MAX_EVENTS_PER_PAGE) {
    if (at.copy === 0 && at.below - 1 <= at.floor) {
      if (!at.floor) break;
      const pointer = await readById<FollowCopyPointerDoc>(FollowCopyPointerModel, chain);
      // A pointer names the latest copy; the one this listing started with is found by its size.
      const copySizeNow: number = pointer?.at === at.floor ? pointer.size : await copySize(chain, at.floor);
      at = { copy: at.floor, below: copySizeNow + 1, floor: 0 };
      continue;
    }
    if (at.below <= 1) break;
    const lowest = at.copy === 0 ? at.floor + 1 : 1;
    const count = Math.min(size, at.below - lowest, MAX_EVENTS_PER_PAGE - reads);
    const numbers = Array.from({ length: count }, (_, i) => at!.below - 1 - i);
    const read: (Listed | null)[] =
      at.copy === 0
        ? await Promise.all(numbers.map((n) => readById<FollowEventDoc>(FollowEventModel, eventId(side, userId, n))))
        : await Promise.all(numbers.map((i) => readById<FollowCopyItemDoc>(FollowCopyItemModel, copyItemId(chain, at!.copy, i))));
    reads += count;
    const live = await Promise.all(read.map(async (listed) => Boolean(listed) && (await stillFollowing(side, userId, listed!))));
    for (let i = 0; i < numbers.length; i += 1) {
      at = { ...at, below: numbers[i]! };
      if (live[i]) {
        others.push(read[i]!.other!);
        found.push(at.copy === 0 ? numbers[i]! : -numbers[i]!);
      }
      if (others.length === size) break;
    }
  }
  const more = at.below > 1 || (at.copy === 0 && at.floor > 0);
  return { others, numbers: found, copy, place: more ? at : null };
}

/** The size of a copy that is no longer the latest: its last item, found by doubling and halving. */
async function copySize(chain: string, copy: number): Promise<number> {
  const has = async (i: number) => Boolean(await readById(FollowCopyItemModel, copyItemId(chain, copy, i), { _id: 1 }));
  let last = 0;
  let step = 1;
  while (await has(last + step)) {
    last += step;
    step *= 2;
  }
  let missing = last + step;
  while (missing - last > 1) {
    const middle = Math.floor((last + missing) / 2);
    if (await has(middle)) last = middle;
    else missing = middle;
  }
  return last;
}

/** A member `userId` follows, named by where their follow is in the follower's followings list. */
export interface Followed {
  memberId: Types.ObjectId;
  /** The number of the `followed` event, or minus the follow's place in the list's copy: a short, lasting name. */
  event: number;
}

/**
 * Up to `max` members `userId` follows, the latest followed first (one bounded page of their followings list), for
 * lists that read what those members wrote (the comment feed); `copy` names the list's copy the negative names are in.
 */
export async function latestFollowed(userId: string, max: number): Promise<{ followed: Followed[]; copy: number }> {
  const page = await listPage('followings', userId, null, max);
  return { followed: page.others.map((memberId, i) => ({ memberId, event: page.numbers[i]! })), copy: page.copy };
}

/** The members named as latestFollowed names them whom `userId` still follows (the rest left out). */
export async function stillFollowed(userId: string, events: number[], copy: number): Promise<Followed[]> {
  const chain = listName('followings', userId);
  const docs = await Promise.all(
    events.map((n) =>
      n > 0 ? readById<Listed>(FollowEventModel, eventId('followings', userId, n)) : readById<Listed>(FollowCopyItemModel, copyItemId(chain, copy, -n)),
    ),
  );
  const live = await Promise.all(docs.map(async (doc) => Boolean(doc) && (await stillFollowing('followings', userId, doc!))));
  return events.flatMap((event, i) => (live[i] ? [{ memberId: docs[i]!.other!, event }] : []));
}
