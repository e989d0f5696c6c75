/**
 * The comments of the pieces opened in the detail modal: the pages loaded so far (newest first), the piece's
 * count, and the member's comment on its way. Kept per piece, so that stepping back to a piece shows its comments
 * at once while they are read again.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { components } from '../../../../generated/openapi';

export type PieceComment = components['schemas']['Comment'];

export interface PieceComments {
  items: PieceComment[];
  nextCursor: string | null;
  total: number | null;
  loading: boolean;
  failed: boolean;
  /** A comment being sent. */
  posting: boolean;
}

export interface CommentsState {
  byContent: Record<string, PieceComments>;
  /** Bumped when the comment box of `focusContentId` should take the focus (after a visitor signed in for it). */
  focusRequest: number;
  focusContentId: string | null;
}

export const initialCommentsState: CommentsState = { byContent: {}, focusRequest: 0, focusContentId: null };

const empty = (): PieceComments => ({ items: [], nextCursor: null, total: null, loading: false, failed: false, posting: false });

export interface NewComment {
  contentId: string;
  ownerId: string;
  text: string;
  atSeconds: number | null;
}

const commentsSlice = createSlice({
  name: 'comments',
  initialState: initialCommentsState,
  reducers: {
    /** The first page (again, `more` false) or the next one. */
    commentsRequested(state, action: PayloadAction<{ contentId: string; more?: boolean }>) {
      const piece = (state.byContent[action.payload.contentId] ??= empty());
      piece.loading = true;
      piece.failed = false;
    },
    commentsLoaded(
      state,
      action: PayloadAction<{ contentId: string; more: boolean; comments: PieceComment[]; nextCursor: string | null; total: number | null }>,
    ) {
      const { contentId, more, comments, nextCursor, total } = action.payload;
      const piece = (state.byContent[contentId] ??= empty());
      const known = new Set(more ? piece.items.map((comment) => comment.id) : []);
      piece.items = more ? [...piece.items, ...comments.filter((comment) => !known.has(comment.id))] : comments;
      piece.nextCursor = nextCursor;
      piece.total = total;
      piece.loading = false;
    },
    commentsFailed(state, action: PayloadAction<{ contentId: string }>) {
      const piece = (state.byContent[action.payload.contentId] ??= empty());
      piece.loading = false;
      piece.failed = true;
    },
    commentSubmitted(state, action: PayloadAction<NewComment>) {
      (state.byContent[action.payload.contentId] ??= empty()).posting = true;
    },
    commentAdded(state, action: PayloadAction<{ contentId: string; comment: PieceComment; commentsCount: number }>) {
      const piece = (state.byContent[action.payload.contentId] ??= empty());
      piece.items = [action.payload.comment, ...piece.items.filter((comment) => comment.id !== action.payload.comment.id)];
      piece.total = action.payload.commentsCount;
      piece.posting = false;
    },
    commentNotAdded(state, action: PayloadAction<{ contentId: string }>) {
      (state.byContent[action.payload.contentId] ??= empty()).posting = false;
    },
    commentRemoveRequested(_state, _action: PayloadAction<{ contentId: string; commentId: string }>) {},
    commentRemoved(state, action: PayloadAction<{ contentId: string; commentId: string; commentsCount: number }>) {
      const piece = state.byContent[action.payload.contentId];
      if (!piece) return;
      piece.items = piece.items.filter((comment) => comment.id !== action.payload.commentId);
      piece.total = action.payload.commentsCount;
    },
    /** A visitor signed in from the comment box: it takes the focus again. */
    commentBoxRequested(state, action: PayloadAction<{ contentId: string }>) {
      state.focusRequest += 1;
      state.focusContentId = action.payload.contentId;
    },
  },
});

export const {
  commentsRequested,
  commentsLoaded,
  commentsFailed,
  commentSubmitted,
  commentAdded,
  commentNotAdded,
  commentRemoveRequested,
  commentRemoved,
  commentBoxRequested,
} = commentsSlice.actions;
export const commentsReducer = commentsSlice.reducer;
