import { useGetPaidHistoryInfiniteQuery, useGetUserHistoryInfiniteQuery } from '../../../api/generated/endpoints';
import type { GetUserHistoryResult } from '../../../api/generated/operations';
import { usePagedList } from '../../../api/pagedList';

export type HistoryItem = GetUserHistoryResult['items'][number];

const PAGE = 20;

/** A page's items, each under the `id` the paged list tells items apart by. */
const itemsOf = (page: GetUserHistoryResult) => page.items.map((item) => ({ ...item, id: item.historyId }));

/**
 * A member's history items, newest first, a page at a time (keyset cursor), from the cache: `all` (every item) or
 * `paid` (Paid0 items only). A change of the member's money (a cash-out asked, a listing paid) loads them again.
 */
export function useHistory(userId: string | undefined, list: 'all' | 'paid') {
  const args = { path: { id: userId ?? '' }, query: { limit: PAGE } };
  const all = useGetUserHistoryInfiniteQuery(args, { skip: !userId || list !== 'all' });
  const paid = useGetPaidHistoryInfiniteQuery(args, { skip: !userId || list !== 'paid' });
  const history = usePagedList(list === 'all' ? all : paid, itemsOf);
  return {
    items: history.items,
    loading: history.status === 'loading' || history.loadingMore,
    loaded: history.status === 'ready',
    more: history.hasMore ? history.loadMore : undefined,
    error: history.error,
    // After a failure: the page that failed again (the first, or the next one).
    retry: history.retry,
  };
}
