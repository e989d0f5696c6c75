/**
 * The comment box's one piece of UI state: a visitor asked to sign up from a piece's comment box comes back to it
 * signed in, and it takes the focus again. The comments themselves are reads of the cached data layer
 * (hooks/usePieceComments.ts).
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface CommentsState {
  /** Bumped when the comment box of `focusContentId` should take the focus (after a visitor signed in for it). */
  focusRequest: number;
  focusContentId: string | null;
}

export const initialCommentsState: CommentsState = { focusRequest: 0, focusContentId: null };

const commentsSlice = createSlice({
  name: 'comments',
  initialState: initialCommentsState,
  reducers: {
    /** A visitor signed in from the comment box: it takes the focus again. */
    commentBoxRequested(state, action: PayloadAction<{ contentId: string }>) {
      state.focusRequest += 1;
      state.focusContentId = action.payload.contentId;
    },
  },
});

export const { commentBoxRequested } = commentsSlice.actions;
export const commentsReducer = commentsSlice.reducer;
