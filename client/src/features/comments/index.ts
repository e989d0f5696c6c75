/**
 * features/comments: a piece's comments in the detail modal (the list, paged, and the box, which asks a visitor to
 * sign up first), timed comments on songs, and removal by the author, the piece's owner or an admin.
 */
export { commentsReducer, initialCommentsState, commentBoxRequested } from './comments.slice';
export type { CommentsState, PieceComment } from './comments.slice';
export { commentsSaga } from './comments.saga';
export { selectCommentTimes, selectPieceComments } from './comments.selectors';
/** The comments panel of the detail modal: a lazy chunk, with the antd parts the modal loads anyway. */
export const loadCommentsPanel = () => import('./components/CommentsPanel');
