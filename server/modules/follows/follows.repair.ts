/**
 * Repairs of the follows: keys that older code spelled wrong, and the list events of changes whose process died
 * between the fact and its events (follows.pending.ts).
 */
import { Types } from 'mongoose';
import { readById } from '../../lib/query';
import { rekeyDocuments } from '../../lib/rekey';
import { appendListEvent, eventId, listEnd, settleUserTotals } from './follows.lists';
import { followKey, FollowEventModel, FollowModel, type FollowDoc, type FollowEventDoc, type FollowPendingDoc, type FollowSide } from './follows.model';
import { FOLLOW_CHANGE_GRACE_MS, followChanges } from './follows.pending';

/** Merges follows keyed by an id in capitals into the one follow of their pair, and deletes follows of oneself; safe to repeat. */
export const repairFollowKeys = () =>
  rekeyDocuments<FollowDoc>(FollowModel, /[A-F]/, ({ followerId, followedId }) =>
    followerId.equals(followedId) ? null : followKey(String(followerId), String(followedId)),
  );

/**
 * The kinds of the events of a member's list that name `instance`, among those appended since `since`: read from the
 * list's end down, so what is read is the list's changes since the mark, not its history.
 */
async function eventKindsNaming(side: FollowSide, userId: string, instance: string | null, since: Date): Promise<Set<FollowEventDoc['kind']>> {
  const kinds = new Set<FollowEventDoc['kind']>();
  const { n: end } = await listEnd(side, userId);
  for (let n = end; n >= 1; n -= 1) {
    const event = await readById<Pick<FollowEventDoc, 'kind' | 'instance' | 'at'>>(FollowEventModel, eventId(side, userId, n), { kind: 1, instance: 1, at: 1 });
    if (!event || event.at < since) break;
    if ((event.instance ?? null) === instance) kinds.add(event.kind);
  }
  return kinds;
}

/** Appends what one marked change left out of either list; answers how many events it appended. */
async function repairChange(mark: FollowPendingDoc): Promise<number> {
  const followerId = String(mark.followerId);
  const followedId = String(mark.followedId);
  // Events are appended after the mark with the change's own time; a margin for clocks of other instances.
  const since = new Date(mark.at.getTime() - FOLLOW_CHANGE_GRACE_MS);
  const sides: { side: FollowSide; userId: string; other: string }[] = [
    { side: 'followers', userId: followedId, other: followerId },
    { side: 'followings', userId: followerId, other: followedId },
  ];
  const [follow, ...seen] = await Promise.all([
    readById<Pick<FollowDoc, 'instance'>>(FollowModel, followKey(followerId, followedId), { instance: 1 }),
    ...sides.map(({ side, userId }) => eventKindsNaming(side, userId, mark.instance, since)),
  ]);
  const stands = Boolean(follow) && (follow!.instance ?? null) === mark.instance;
  // Whether the fact happened: a follow inserted is there, or was since unfollowed (an event names it); an unfollow
  // deleted the follow it read. A fact that did not happen (the process died before it) needs nothing.
  const happened = mark.kind === 'followed' ? stands || seen.some((kinds) => kinds.size > 0) : !stands;
  if (!happened) return 0;
  let appended = 0;
  for (const [i, { side, userId, other }] of sides.entries()) {
    if (seen[i]!.has(mark.kind)) continue;
    await appendListEvent(
      side,
      userId,
      { kind: mark.kind, other: new Types.ObjectId(other), instance: mark.instance, at: mark.at },
      mark.kind === 'followed' ? 1 : -1,
    );
    appended += 1;
  }
  if (appended) await settleUserTotals(followedId, followerId);
  return appended;
}

/**
 * The follow-repairs job: each change marked more than FOLLOW_CHANGE_GRACE_MS ago gets the events its process did not
 * append, and its mark is cleared. It reads the marks whole: they are only the changes under way (none, most of the
 * time), so its work grows with the changes that crashed, not with the follows. Safe to run again at any point.
 */
export async function repairLostFollowEvents(now = new Date()): Promise<{ marks: number; repaired: number; events: number }> {
  const { marks, repaired, writes } = await followChanges.repairDue(repairChange, now);
  return { marks, repaired, events: writes };
}
