/** Comments: comments and shares on pieces, their lists and the counts they keep. */
export { commentsRouter } from './comments.routes';
export { addComment, COMMENT_LIMIT, COMMENT_MESSAGES, commentsOfPieceList, commentTotals, forgetCommentThreads } from './comments.service';
export { CommentModel, type CommentDoc } from './comments.model';
export { forgetCommentLists } from './comments.lists';
export { buildCommentListsIfNone, commentListsKeptState } from './comments.kept';
export { commentsExportOf, removeCommentsOf } from './comments.erasure';
export { repairLostCommentSteps } from './comments.repair';
