import { useGetContentsByUsernameInfiniteQuery, useGetSupportedContentsInfiniteQuery } from '../../../api/generated/endpoints';
import type { GetContentsByUsernameResult, GetSupportedContentsResult } from '../../../api/generated/operations';
import { usePagedList, type PagedList } from '../../../api/pagedList';
import type { TagType } from '../../../lib/tags';
import type { Content } from '../../../lib/content';

/** Pieces one page of a profile asks for. */
export const PROFILE_PAGE_SIZE = 24;

const uploadsOf = (page: GetContentsByUsernameResult) => page.contents;
const supportedOf = (page: GetSupportedContentsResult) => page.contents;

/**
 * A member's uploads, newest first, optionally of one type (the member themself also gets private ones). A piece
 * uploaded or removed since loads the list again (the cache's invalidation).
 */
export function useUploads(username: string | undefined, type?: TagType): PagedList<Content> {
  const uploads = useGetContentsByUsernameInfiniteQuery({ path: { username: username ?? '' }, query: { type, limit: PROFILE_PAGE_SIZE } }, { skip: !username });
  return usePagedList(uploads, uploadsOf);
}

/** The member's collection: the pieces they paid the listing fee for. */
export function useCollection(userId: string | undefined): PagedList<Content> {
  const collection = useGetSupportedContentsInfiniteQuery({ path: { id: userId ?? '' }, query: { limit: PROFILE_PAGE_SIZE } }, { skip: !userId });
  return usePagedList(collection, supportedOf);
}
