/**
 * Marks of follow changes on their way. A follow or unfollow is two steps: its fact (the follow document inserted or
 * deleted), then its events in both members' lists. A process that dies between them leaves the fact without its
 * events, so the lists and counts would stay wrong until a full rebuild. So each change is marked before its fact and
 * the mark is cleared after its events: a mark left past its grace names exactly what the follow-repairs job must
 * look at (follows.repair.ts), and a job that finds no mark has nothing to read.
 */
import { Types } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { insertWhole } from '../../lib/query';
import { followKey, FollowPendingModel, type FollowPendingDoc } from './follows.model';

export type FollowChangeKind = FollowPendingDoc['kind'];

const markId = (kind: FollowChangeKind, followerId: string, followedId: string, instance: string | null) =>
  `${kind}|${followKey(followerId, followedId)}|${instance ?? ''}`;

/** Marks a change before its fact; a mark already there (the same change tried again) is kept. Answers its id. */
export async function markFollowChange(kind: FollowChangeKind, followerId: string, followedId: string, instance: string | null, at: Date): Promise<string> {
  const _id = markId(kind, followerId, followedId, instance);
  const mark: FollowPendingDoc = {
    _id,
    kind,
    followerId: new Types.ObjectId(followerId),
    followedId: new Types.ObjectId(followedId),
    instance,
    at,
    writtenAt: new Date(),
  };
  try {
    await insertWhole(FollowPendingModel, mark);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  return _id;
}

/** Clears a change's mark: its events are in both lists, or its fact is known not to have happened. */
export async function clearFollowChange(id: string): Promise<void> {
  await FollowPendingModel.collection.deleteOne({ _id: id as never });
}
