/**
 * Who follows whom, as this member's screens show it: each member's counts as last answered, and whether the
 * signed-in member follows them. Kept in one place so that a follow made anywhere (a profile, the detail modal,
 * the follow modal's rows) moves every button and count on screen at once.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface FollowCounts {
  followersCount: number;
  followingsCount: number;
}

export interface FollowsState {
  counts: Record<string, FollowCounts>;
  /** Whether the signed-in member follows each member (known from a count, a list or a change). */
  following: Record<string, boolean>;
  /** A change on its way, per member followed. */
  busy: Record<string, boolean>;
}

export const initialFollowsState: FollowsState = { counts: {}, following: {}, busy: {} };

export interface FollowTarget {
  userId: string;
  /** The name the toast uses. */
  name: string;
}

const followsSlice = createSlice({
  name: 'follows',
  initialState: initialFollowsState,
  reducers: {
    countsRequested(_state, _action: PayloadAction<{ userId: string }>) {},
    countsLoaded(state, action: PayloadAction<{ userId: string; isFollowing?: boolean } & FollowCounts>) {
      const { userId, isFollowing, followersCount, followingsCount } = action.payload;
      state.counts[userId] = { followersCount, followingsCount };
      if (isFollowing !== undefined) state.following[userId] = isFollowing;
    },
    /** What a follow list said about its entries. */
    followingSeen(state, action: PayloadAction<Record<string, boolean>>) {
      for (const [userId, isFollowing] of Object.entries(action.payload)) if (!state.busy[userId]) state.following[userId] = isFollowing;
    },
    followToggled(state, action: PayloadAction<FollowTarget & { set: boolean }>) {
      state.busy[action.payload.userId] = true;
    },
    followChanged(state, action: PayloadAction<{ userId: string; myId: string; isFollowing: boolean; subjector: FollowCounts; me: FollowCounts }>) {
      const { userId, myId, isFollowing, subjector, me } = action.payload;
      state.following[userId] = isFollowing;
      state.counts[userId] = subjector;
      state.counts[myId] = me;
      delete state.busy[userId];
    },
    followFailed(state, action: PayloadAction<{ userId: string }>) {
      delete state.busy[action.payload.userId];
    },
    /** Signed out: nothing is followed any more. */
    followsForgotten() {
      return initialFollowsState;
    },
  },
});

export const { countsRequested, countsLoaded, followingSeen, followToggled, followChanged, followFailed, followsForgotten } = followsSlice.actions;
export const followsReducer = followsSlice.reducer;
