import type { FollowCounts, FollowsState } from './follows.slice';

type WithFollows = { follows: FollowsState };

export const selectFollowCounts = (state: WithFollows, userId: string): FollowCounts | undefined => state.follows.counts[userId];
export const selectIsFollowing = (state: WithFollows, userId: string): boolean | undefined => state.follows.following[userId];
export const selectFollowBusy = (state: WithFollows, userId: string): boolean => Boolean(state.follows.busy[userId]);
