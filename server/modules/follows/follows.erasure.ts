/** Removing a member's follows, both ways, when their account is deleted: the other members' counts follow. */
import { Types } from 'mongoose';
import { anyOf } from '../../lib/query';
import { setFollowTotals } from '../users';
import { FollowModel, type FollowDoc } from './follows.model';
import { followTotals } from './follows.service';

/** Removes whom the member follows and who follows them, then sets those members' totals from what is left; safe to repeat. */
export async function removeFollowsOf(userId: string): Promise<number> {
  const member = new Types.ObjectId(userId);
  const [following, followers] = await Promise.all([
    FollowModel.find({ followerId: member }, { followedId: 1 }).lean<Pick<FollowDoc, '_id' | 'followedId'>[]>(),
    FollowModel.find({ followedId: member }, { followerId: 1 }).lean<Pick<FollowDoc, '_id' | 'followerId'>[]>(),
  ]);
  const ids = [...following, ...followers].map((follow) => follow._id);
  if (!ids.length) return 0;
  await FollowModel.deleteMany({ _id: anyOf(ids) });
  // Counted from the follows left (one read of them all, as the rankings job counts), so that a follow made
  // meanwhile is counted too.
  const totals = await followTotals();
  await setFollowTotals([
    ...following.map(({ followedId }) => ({ userId: followedId, followersCount: totals.get(String(followedId))?.followersCount ?? 0 })),
    ...followers.map(({ followerId }) => ({ userId: followerId, followingsCount: totals.get(String(followerId))?.followingsCount ?? 0 })),
  ]);
  return ids.length;
}
