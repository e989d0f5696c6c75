/** Follows: members following members, the counts and the lists. */
export { followsRouter } from './follows.routes';
export {
  endFollowsBetween,
  FOLLOW_LIMIT,
  FOLLOW_MESSAGES,
  followCounts,
  followedIds,
  followsAmong,
  followTotals,
  isFollower,
  recordFollows,
} from './follows.service';
export { repairFollowKeys } from './follows.repair';
export { FollowModel, type FollowDoc } from './follows.model';
export { removeFollowsOf } from './follows.erasure';
