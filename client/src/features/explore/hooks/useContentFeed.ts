import { getContentsByKind } from '../../../api/generated/operations';
import type { Content } from '../../../lib/content';
import { FEED_PAGE_SIZE, type FeedKind } from '../../../lib/feeds';
import { usePagedList, type PagedList } from '../../../lib/usePagedList';

export interface FeedFilters {
  kind: FeedKind;
  /** A main tag's label (Music, Art, Photos). */
  tag?: string;
  /** A sub-tag's label. */
  subTag?: string;
  /** Only this artist's pieces. */
  ownerId?: string;
}

/**
 * One feed of GET /content/get-by-kind/{kind}, paged by `nextCursor`. Changing a filter starts over (the
 * old requests are aborted). `enabled` false waits (for example until the tag of the URL is known).
 */
export function useContentFeed(filters: FeedFilters, enabled = true): PagedList<Content> {
  const { kind, tag, subTag, ownerId } = filters;
  const key = enabled ? JSON.stringify(['feed', kind, tag ?? null, subTag ?? null, ownerId ?? null]) : null;
  return usePagedList<Content>(key, async (cursor, signal) => {
    const page = await getContentsByKind({ path: { kind }, query: { tag, subTag, ownerId, cursor, limit: FEED_PAGE_SIZE } }, { signal });
    return { items: page.contents, nextCursor: page.nextCursor };
  });
}
