/**
 * A cursor-paged read of the cached data layer (a generated `use…InfiniteQuery`), seen as one growing list: the
 * items of every page loaded so far, whether more can be loaded, and the one call that loads them.
 */
import { useDeferredValue, useMemo } from 'react';
import type { CachedError } from './cache';

export type PagedStatus = 'idle' | 'loading' | 'ready' | 'failed';

export interface PagedList<T> {
  items: T[];
  /** Of the first page: 'idle' while skipped, 'failed' when the first page could not be loaded. */
  status: PagedStatus;
  /** A later page is on its way. */
  loadingMore: boolean;
  /** There is a page after the last one loaded. */
  hasMore: boolean;
  /** The last failure (first page or a later one); cleared by the next success. */
  error: CachedError | undefined;
  /** Loads the next page, unless one is loading or there is none. */
  loadMore: () => void;
  /** After a failure: loads the failed page again. */
  retry: () => void;
}

/** What this needs of an infinite query's result (the generated hooks answer more). */
export interface InfiniteResult<Page> {
  /** The pages of the current arguments only: a list of other filters is never shown while the new one loads. */
  currentData?: { pages: Page[] };
  isUninitialized: boolean;
  isError: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  error?: unknown;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
}

/** The page's items without those listed already (a ranking that moved between two pages lists a piece twice). */
function uniqueItems<Page, T extends { id: string }>(pages: Page[], itemsOf: (page: Page) => T[]): T[] {
  const seen = new Set<string>();
  return pages.flatMap(itemsOf).filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)));
}

/** `itemsOf` picks a page's items (`page => page.contents`); it must be the same function each render (module level). */
export function usePagedList<Page, T extends { id: string }>(result: InfiniteResult<Page>, itemsOf: (page: Page) => T[]): PagedList<T> {
  const { currentData, isUninitialized, isError, isFetchingNextPage, isFetchNextPageError, hasNextPage, error, fetchNextPage, refetch } = result;
  const pages = currentData?.pages;
  const allItems = useMemo(() => (pages ? uniqueItems(pages, itemsOf) : []), [pages, itemsOf]);
  // A page of cards renders at a lower priority than input, so a slow phone's main thread is not held for the
  // whole grid at once.
  const deferredItems = useDeferredValue(allItems);
  const firstPageFailed = isError && !isFetchNextPageError && !pages?.length;
  return {
    // No pages of the current arguments: nothing shows (never a list of other filters while the new one loads).
    items: pages ? deferredItems : [],
    status: isUninitialized ? 'idle' : pages ? 'ready' : firstPageFailed ? 'failed' : 'loading',
    loadingMore: isFetchingNextPage,
    hasMore: Boolean(pages?.length) && hasNextPage,
    error: isError ? (error as CachedError) : undefined,
    loadMore: () => {
      if (pages && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    retry: () => void (firstPageFailed ? refetch() : fetchNextPage()),
  };
}
