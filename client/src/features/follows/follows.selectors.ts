import type { FollowRequest, FollowsState } from './follows.slice';

type WithFollows = { follows: FollowsState };

export const selectFollowAfterSignIn = (state: WithFollows): FollowRequest | null => state.follows.afterSignIn;
