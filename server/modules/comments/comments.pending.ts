/**
 * Marks of comment changes on their way (lib/pending-marks.ts). Writing a comment is its number in the piece's thread
 * (the fact), then the piece's count, the author's and the owner's lists; removing one is its removal's claim (the
 * fact), then its text emptied and the count taken down. A process that dies between them leaves the fact without
 * the rest; the comment-repairs job (comments.repair.ts) finishes each change marked more than
 * COMMENT_CHANGE_GRACE_MS ago.
 */
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { pendingMarks } from '../../lib/pending-marks';
import { CommentPendingModel, type CommentPendingDoc } from './comments.model';

/** As for follows: a comment's writes take milliseconds, so a mark this old names a process that died. */
export const COMMENT_CHANGE_GRACE_MS = 2 * 60_000;

export const commentChanges = pendingMarks<CommentPendingDoc>(CommentPendingModel, COMMENT_CHANGE_GRACE_MS);

/** Marks a new comment before its number is taken (the nonce tells two at the same millisecond apart). */
export const markCommentAdd = (contentId: Types.ObjectId, commentorId: string, at: Date) =>
  commentChanges.mark({
    _id: `add|${String(contentId)}|${commentorId}|${at.getTime()}|${randomBytes(4).toString('hex')}`,
    kind: 'add',
    contentId,
    commentorId: new Types.ObjectId(commentorId),
    commentId: null,
    at,
  });

/** Marks a removal before its claim: one mark per comment, however many try to remove it. */
export const markCommentRemoval = (contentId: Types.ObjectId, commentId: string, at: Date) =>
  commentChanges.mark({ _id: `remove|${commentId}`, kind: 'remove', contentId, commentorId: null, commentId, at });
