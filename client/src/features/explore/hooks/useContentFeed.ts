import { useGetContentsByKindInfiniteQuery } from '../../../api/generated/endpoints';
import type { GetContentsByKindResult } from '../../../api/generated/operations';
import { usePagedList, type PagedList } from '../../../api/pagedList';
import type { Content } from '../../../lib/content';
import { FEED_PAGE_SIZE, type FeedKind } from '../../../lib/feeds';

export interface FeedFilters {
  kind: FeedKind;
  /** A main tag's label (Music, Art, Photos). */
  tag?: string;
  /** A sub-tag's label. */
  subTag?: string;
  /** Only this artist's pieces. */
  ownerId?: string;
}

const piecesOf = (page: GetContentsByKindResult) => page.contents;

/**
 * One feed of GET /content/get-by-kind/{kind}, paged by `nextCursor`, from the cache: a feed seen a minute ago shows
 * at once. `enabled` false waits (for example until the tag of the URL is known).
 */
export function useContentFeed(filters: FeedFilters, enabled = true): PagedList<Content> {
  const { kind, tag, subTag, ownerId } = filters;
  const feed = useGetContentsByKindInfiniteQuery({ path: { kind }, query: { tag, subTag, ownerId, limit: FEED_PAGE_SIZE } }, { skip: !enabled });
  return usePagedList(feed, piecesOf);
}
