/**
 * features/comments: a piece's comments in the detail modal (the list, paged, and the box, which asks a visitor to
 * sign up first), timed comments on songs, and removal by the author, the piece's owner or an admin. The comments
 * are a read of the cached data layer, shared by every part of the detail modal that shows them.
 */
export { commentsReducer } from './comments.slice';
export type { CommentsState } from './comments.slice';
export { usePieceComments } from './hooks/usePieceComments';
/** The comments panel of the detail modal: a lazy chunk, drawn with our own elements (no antd). */
export const loadCommentsPanel = () => import('./components/CommentsPanel');
