/**
 * Comments from the client's side: pages of a piece's comments as the detail modal asks for them, a member's
 * comment sent and shown at the top, a removal. The piece's count follows at once in the modal and the player bar.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import {
  addComment,
  deleteComment,
  getCommentsByContent,
  type AddCommentResult,
  type DeleteCommentResult,
  type GetCommentsByContentResult,
} from '../../api/generated/operations';
import { toApiError } from '../../api/http';
import { notify } from '../../components/notify';
import { commentsCounted } from '../../lib/contentEvents';
import { selectUser, type User } from '../auth';
import {
  commentAdded,
  commentNotAdded,
  commentRemoved,
  commentRemoveRequested,
  commentsFailed,
  commentsLoaded,
  commentsRequested,
  commentSubmitted,
  type CommentsState,
  type NewComment,
} from './comments.slice';

export const COMMENTS_PAGE = 20;

const cursorOf = (state: { comments: CommentsState }, contentId: string) => state.comments.byContent[contentId]?.nextCursor ?? undefined;

export function* loadComments(action: PayloadAction<{ contentId: string; more?: boolean }>): SagaIterator {
  const { contentId, more = false } = action.payload;
  const cursor: string | undefined = more ? yield select(cursorOf, contentId) : undefined;
  try {
    const page: GetCommentsByContentResult = yield call(
      getCommentsByContent,
      { path: { id: contentId }, query: { limit: COMMENTS_PAGE, ...(cursor ? { cursor } : {}) } },
      { quiet: true },
    );
    yield put(commentsLoaded({ contentId, more, ...page }));
  } catch {
    yield put(commentsFailed({ contentId }));
  }
}

export function* sendComment(action: PayloadAction<NewComment>): SagaIterator {
  const { contentId, ownerId, text, atSeconds } = action.payload;
  const user: User | null = yield select(selectUser);
  if (!user) {
    yield put(commentNotAdded({ contentId }));
    return;
  }
  try {
    const result: AddCommentResult = yield call(addComment, { body: { comment: text, userId: user.id, ownerId, contentId, atSeconds } }, { quiet: true });
    yield put(commentAdded({ contentId, comment: result.comment, commentsCount: result.commentsCount }));
    yield put(commentsCounted({ contentId, commentsCount: result.commentsCount }));
  } catch (error) {
    yield put(commentNotAdded({ contentId }));
    yield call(notify, 'error', toApiError(error).message);
  }
}

export function* removeComment(action: PayloadAction<{ contentId: string; commentId: string }>): SagaIterator {
  const { contentId, commentId } = action.payload;
  try {
    const result: DeleteCommentResult = yield call(deleteComment, { path: { commentId } }, { quiet: true });
    yield put(commentRemoved({ contentId, commentId, commentsCount: result.commentsCount }));
    yield put(commentsCounted({ contentId, commentsCount: result.commentsCount }));
    yield call(notify, 'success', result.message);
  } catch (error) {
    yield call(notify, 'error', toApiError(error).message);
  }
}

export function* commentsSaga(): SagaIterator {
  yield takeLatest(commentsRequested.type, loadComments);
  yield takeEvery(commentSubmitted.type, sendComment);
  yield takeEvery(commentRemoveRequested.type, removeComment);
}
