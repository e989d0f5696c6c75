/** Follows: members following members, the counts and the lists. */
export { followsRouter } from './follows.routes';
export { endFollowsBetween, FOLLOW_LIMIT, FOLLOW_MESSAGES, followCounts, followsAmong, followTotals, isFollower, recordFollows } from './follows.service';
export { compactList, forgetFollowLists, latestFollowed, recordFollow, recordUnfollow, stillFollowed, type Followed } from './follows.lists';
export { buildFollowListsIfNone, followListsKeptState } from './follows.kept';
export { repairFollowKeys, repairLostFollowEvents } from './follows.repair';
export { FOLLOW_CHANGE_GRACE_MS } from './follows.pending';
export { FollowModel, type FollowDoc } from './follows.model';
export { removeFollowsOf } from './follows.erasure';
