/**
 * The comment-repairs job: finishes the comment changes whose process died between their writes (comments.pending.ts).
 * It reads the marks whole (only the changes under way), and for each one the piece's thread and the two lists since
 * the change, then the piece's thread once to set its count: its work grows with the changes that crashed.
 */
import { byList, listComment, listNamesSince, onList } from './comments.lists';
import { CommentRemovalModel, type CommentPendingDoc } from './comments.model';
import { COMMENT_CHANGE_GRACE_MS, commentChanges } from './comments.pending';
import { emptyRemoved, recountPieceComments, threadCommentsSince } from './comments.service';
import { readById } from '../../lib/query';

/** A comment written (its number taken) but maybe not listed or counted: listed where missing, its piece recounted. */
async function finishAdd(mark: CommentPendingDoc): Promise<boolean> {
  // Entries carry the comment's own time; a margin for the clocks of other instances.
  const since = new Date(mark.at.getTime() - COMMENT_CHANGE_GRACE_MS);
  const written = (await threadCommentsSince(mark.contentId, since)).filter(
    (comment) => mark.commentorId !== null && comment.commentorId.equals(mark.commentorId) && comment.at.getTime() === mark.at.getTime(),
  );
  if (!written.length) return false; // the process died before the comment's number was taken: nothing was written
  for (const comment of written) {
    if (!(await listNamesSince(byList(String(comment.commentorId)), comment._id, since))) await listComment(comment, 'by');
    if (!(await listNamesSince(onList(String(comment.ownerId)), comment._id, since))) await listComment(comment, 'on');
  }
  await recountPieceComments(mark.contentId);
  return true;
}

/** A removal claimed but maybe not applied: the text emptied, the piece recounted. */
async function finishRemoval(mark: CommentPendingDoc): Promise<boolean> {
  const claim = mark.commentId ? await readById<{ at: Date }>(CommentRemovalModel, mark.commentId, { at: 1 }) : null;
  if (!claim) return false; // the process died before the claim: the comment stands
  await emptyRemoved(mark.commentId!, claim.at);
  await recountPieceComments(mark.contentId);
  return true;
}

/** Each comment change marked more than COMMENT_CHANGE_GRACE_MS ago, finished; safe to run again at any point. */
export async function repairLostCommentSteps(now = new Date()): Promise<{ marks: number; finished: number }> {
  const { marks, repaired } = await commentChanges.repairDue(async (mark) => Number(await (mark.kind === 'add' ? finishAdd(mark) : finishRemoval(mark))), now);
  return { marks, finished: repaired };
}
