/**
 * The one thing about follows the client keeps itself: a follow a visitor asked for, waiting for the sign-in it needed
 * (the login modal's callback brings it back once they are signed in, and the follows on screen send it). Who follows
 * whom and the counts are server reads, kept by the cached data layer (follows.cache.ts).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loggedOut, sessionLost } from '../auth';

export interface FollowRequest {
  userId: string;
  /** The name the toast uses. */
  name: string;
  /** Follow (true) or unfollow. */
  set: boolean;
}

export interface FollowsState {
  /** A follow asked for by a visitor, who is signed in now: to send. */
  afterSignIn: FollowRequest | null;
}

export const initialFollowsState: FollowsState = { afterSignIn: null };

const followsSlice = createSlice({
  name: 'follows',
  initialState: initialFollowsState,
  reducers: {
    /** The login modal's callback: the visitor who asked for this follow is signed in now. */
    followAfterSignIn(state, action: PayloadAction<FollowRequest>) {
      state.afterSignIn = action.payload;
    },
    /** The follow waiting for the sign-in is on its way. */
    followAfterSignInTaken(state) {
      state.afterSignIn = null;
    },
  },
  extraReducers: (builder) => {
    // Signed out before it was sent: it is not this member's to send any more.
    builder.addCase(loggedOut, () => initialFollowsState);
    builder.addCase(sessionLost, () => initialFollowsState);
  },
});

export const { followAfterSignIn, followAfterSignInTaken } = followsSlice.actions;
export const followsReducer = followsSlice.reducer;
