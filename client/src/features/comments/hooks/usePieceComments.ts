/**
 * A piece's comments as the cached data layer holds them: one read per piece, newest first, in pages, with the piece's
 * comments count. The panel, the markers on a song's waveform and the count in the detail modal share it. A comment
 * added or removed invalidates it (it loads again); the answer shows in it at once meanwhile, as it did before the
 * list came back.
 */
import { knackApi, useGetCommentsByContentInfiniteQuery } from '../../../api/generated/endpoints';
import type { AddCommentResult, GetCommentsByContentResult } from '../../../api/generated/operations';
import { usePagedList, type PagedList } from '../../../api/pagedList';

export type PieceComment = GetCommentsByContentResult['comments'][number];

/** Comments one page asks for. */
const COMMENTS_PAGE = 20;

const commentsArgs = (contentId: string) => ({
  path: { id: contentId },
  query: { limit: COMMENTS_PAGE },
  quiet: 'the panel says the comments could not be loaded, and offers to try again',
});

const commentsOf = (page: GetCommentsByContentResult) => page.comments;

/**
 * The piece's comments loaded so far and its count (null until the first page answers). `skip`: not read now (a
 * closed modal), when the count stays the last one shown, as the closing animation shows it.
 */
export function usePieceComments(contentId: string, skip = false): PagedList<PieceComment> & { total: number | null } {
  const read = useGetCommentsByContentInfiniteQuery(commentsArgs(contentId), { skip });
  const list = usePagedList(read, commentsOf);
  const pages = skip ? read.data?.pages : read.currentData?.pages;
  return { ...list, total: pages?.[0]?.total ?? null };
}

/** The member's comment, as the server answered it, at the top of the piece's comments. */
export function showCommentAdded(contentId: string, { comment, commentsCount }: AddCommentResult) {
  return knackApi.util.updateQueryData('getCommentsByContent', commentsArgs(contentId), (list) => {
    list.pages[0]?.comments.unshift(comment);
    for (const page of list.pages) page.total = commentsCount;
  });
}

/** A removed comment leaves the piece's comments. */
export function showCommentRemoved(contentId: string, commentId: string, commentsCount: number) {
  return knackApi.util.updateQueryData('getCommentsByContent', commentsArgs(contentId), (list) => {
    for (const page of list.pages) {
      page.comments = page.comments.filter((comment) => comment.id !== commentId);
      page.total = commentsCount;
    }
  });
}
