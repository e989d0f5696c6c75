/**
 * Marks of follow changes on their way (lib/pending-marks.ts). A follow or unfollow is two steps: its fact (the
 * follow document inserted or deleted), then its events in both members' lists. A process that dies between them
 * leaves the fact without its events; the follow-repairs job (follows.repair.ts) appends what is missing for each
 * change marked more than FOLLOW_CHANGE_GRACE_MS ago.
 */
import { Types } from 'mongoose';
import { pendingMarks } from '../../lib/pending-marks';
import { followKey, FollowPendingModel, type FollowPendingDoc } from './follows.model';

/**
 * How long a change's mark is left to its own process: a follow's steps take milliseconds, so a mark this old names
 * a process that died (or a call stuck far past any request's time).
 */
export const FOLLOW_CHANGE_GRACE_MS = 2 * 60_000;

export const followChanges = pendingMarks<FollowPendingDoc>(FollowPendingModel, FOLLOW_CHANGE_GRACE_MS);

/** Marks a change before its fact; answers the mark's id, to clear after its events. */
export const markFollowChange = (kind: FollowPendingDoc['kind'], followerId: string, followedId: string, instance: string | null, at: Date) =>
  followChanges.mark({
    _id: `${kind}|${followKey(followerId, followedId)}|${instance ?? ''}`,
    kind,
    followerId: new Types.ObjectId(followerId),
    followedId: new Types.ObjectId(followedId),
    instance,
    at,
  });
