import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError } from '../api/http';

/** One page of a cursor-paged list (the contract's `{ …, nextCursor }` answers, mapped to `items`). */
export interface Page<T> {
  items: T[];
  /** Null on the last page. */
  nextCursor: string | null;
}

/** Loads the page after `cursor` (undefined: the first page); must honour `signal`. */
export type PageLoader<T> = (cursor: string | undefined, signal: AbortSignal) => Promise<Page<T>>;

import type { PagedStatus } from '../api/pagedList';
export type { PagedStatus };

export interface PagedList<T> {
  items: T[];
  /** Of the first page: 'idle' while disabled, 'failed' when the first page could not be loaded. */
  status: PagedStatus;
  /** A later page is on its way. */
  loadingMore: boolean;
  /** There is a page after the last one loaded. */
  hasMore: boolean;
  /** The last failure (first page or a later one); cleared by the next success. */
  error: ApiError | undefined;
  /** Loads the next page, unless one is loading, there is none, or it was loaded already. */
  loadMore: () => void;
  /** After a failure: loads the failed page again. */
  retry: () => void;
}

interface ListState<T> {
  /** The key the state belongs to: a state of another key is not shown (no flash of the old list). */
  key: string | null;
  items: T[];
  status: PagedStatus;
  loadingMore: boolean;
  hasMore: boolean;
  error: ApiError | undefined;
}

/** What one key's run knows: its abort controller and which pages it asked for. */
interface Run {
  controller: AbortController;
  nextCursor: string | null;
  /** Cursors asked for ('' is the first page): a page is never requested twice. */
  requested: Set<string>;
  busy: boolean;
}

const blank = <T>(key: string | null, status: PagedStatus): ListState<T> => ({
  key,
  items: [],
  status,
  loadingMore: false,
  hasMore: false,
  error: undefined,
});

/** Appends a page, leaving out pieces already listed (a list that shifted between two pages). */
function appendUnique<T extends { id: string }>(items: T[], page: T[]): T[] {
  const seen = new Set(items.map((item) => item.id));
  return [...items, ...page.filter((item) => !seen.has(item.id))];
}

/**
 * A cursor-paged list. `key` names what is listed (a feed and its filters): when it changes, the requests
 * of the old key are aborted, their late answers ignored, and the first page of the new key loads. Null
 * disables the list. Pages are appended in order, one request at a time, never the same page twice.
 */
export function usePagedList<T extends { id: string }>(key: string | null, load: PageLoader<T>): PagedList<T> {
  const loadRef = useRef(load);
  loadRef.current = load;
  const runRef = useRef<Run | null>(null);
  const [state, setState] = useState<ListState<T>>(() => blank(key, key === null ? 'idle' : 'loading'));
  const [generation, setGeneration] = useState(0);

  const fetchPage = useCallback((run: Run, listKey: string, cursor: string | undefined) => {
    const pageKey = cursor ?? '';
    if (run.busy || run.requested.has(pageKey) || run.controller.signal.aborted) return;
    run.requested.add(pageKey);
    run.busy = true;
    setState((previous) => ({ ...previous, loadingMore: cursor !== undefined, error: undefined }));
    loadRef.current(cursor, run.controller.signal).then(
      (page) => {
        if (runRef.current !== run) return;
        run.busy = false;
        run.nextCursor = page.nextCursor;
        // A page of cards renders as a transition: in slices, so a slow phone's main thread is not held for the
        // whole grid at once.
        startTransition(() =>
          setState((previous) => ({
            key: listKey,
            items: cursor === undefined ? page.items : appendUnique(previous.items, page.items),
            status: 'ready',
            loadingMore: false,
            hasMore: page.nextCursor !== null,
            error: undefined,
          })),
        );
      },
      (error: unknown) => {
        if (runRef.current !== run || run.controller.signal.aborted) return;
        run.busy = false;
        run.requested.delete(pageKey); // a failed page may be asked for again
        setState((previous) => ({
          ...previous,
          status: cursor === undefined ? 'failed' : previous.status,
          loadingMore: false,
          error: toApiError(error),
        }));
      },
    );
  }, []);

  useEffect(() => {
    if (key === null) {
      runRef.current = null;
      setState(blank(null, 'idle'));
      return undefined;
    }
    const run: Run = { controller: new AbortController(), nextCursor: null, requested: new Set(), busy: false };
    runRef.current = run;
    setState(blank(key, 'loading'));
    fetchPage(run, key, undefined);
    return () => {
      run.controller.abort();
      if (runRef.current === run) runRef.current = null;
    };
  }, [key, generation, fetchPage]);

  const loadMore = useCallback(() => {
    const run = runRef.current;
    if (run?.nextCursor && key !== null) fetchPage(run, key, run.nextCursor);
  }, [fetchPage, key]);

  const current = state.key === key ? state : blank<T>(key, key === null ? 'idle' : 'loading');
  const firstPageFailed = current.status === 'failed';
  const retry = useCallback(() => {
    if (firstPageFailed) setGeneration((value) => value + 1);
    else loadMore();
  }, [firstPageFailed, loadMore]);

  return {
    items: current.items,
    status: current.status,
    loadingMore: current.loadingMore,
    hasMore: current.hasMore,
    error: current.error,
    loadMore,
    retry,
  };
}
