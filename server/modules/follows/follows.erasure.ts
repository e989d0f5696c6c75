/** Removing a member's follows, both ways, when their account is deleted: the other members' lists and counts follow. */
import { Types } from 'mongoose';
import { FollowModel, type FollowDoc } from './follows.model';
import { recordUnfollow } from './follows.lists';

/** Follows ended at once while a deletion runs: a bounded load on the database however many followers there are. */
const AT_ONCE = 8;

/**
 * Ends whom the member follows and who follows them, each as an unfollow is (its events in both members' lists, their
 * kept totals), so every list and count stays exact; safe to repeat. Answers how many this call ended.
 */
export async function removeFollowsOf(userId: string, now = new Date()): Promise<number> {
  const member = new Types.ObjectId(userId);
  // A deletion reads the member's follows by a field (a scan on the embedded database): it runs once per account.
  const [following, followers] = await Promise.all([
    FollowModel.find({ followerId: member }, { followerId: 1, followedId: 1 }).lean<Pick<FollowDoc, 'followerId' | 'followedId'>[]>(),
    FollowModel.find({ followedId: member }, { followerId: 1, followedId: 1 }).lean<Pick<FollowDoc, 'followerId' | 'followedId'>[]>(),
  ]);
  const pairs = [...following, ...followers];
  let ended = 0;
  for (let i = 0; i < pairs.length; i += AT_ONCE) {
    const done = await Promise.all(
      pairs.slice(i, i + AT_ONCE).map(({ followerId, followedId }) => recordUnfollow(String(followerId), String(followedId), now)),
    );
    ended += done.filter(Boolean).length;
  }
  return ended;
}
