import { useCallback, useEffect, useState } from 'react';
import { getPaidHistory, getUserHistory, type GetUserHistoryResult } from '../../../api/generated/operations';
import { toApiError, type ApiError } from '../../../api/http';

export type HistoryItem = GetUserHistoryResult['items'][number];

const PAGE = 20;

/**
 * A member's history items, newest first, a page at a time (keyset cursor): `all` (every item) or
 * `paid` (Paid0 items only). `reloadKey` starts again from the first page.
 */
export function useHistory(userId: string | undefined, list: 'all' | 'paid', reloadKey: unknown = 0) {
  const [items, setItems] = useState<HistoryItem[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();

  const load = useCallback(
    async (from: string | undefined, signal?: AbortSignal) => {
      if (!userId) return;
      setLoading(true);
      setError(undefined);
      try {
        const args = { path: { id: userId }, query: { limit: PAGE, ...(from ? { cursor: from } : {}) } };
        const page = list === 'all' ? await getUserHistory(args, { signal }) : await getPaidHistory(args, { signal });
        setItems((known) => (from ? [...known, ...page.items] : page.items));
        setCursor(page.nextCursor ?? null);
      } catch (err) {
        if (!signal?.aborted) setError(toApiError(err));
      } finally {
        if (!signal?.aborted) setLoading(false);
      }
    },
    [userId, list],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(undefined, controller.signal);
    return () => controller.abort();
  }, [load, reloadKey]);

  const more = cursor ? () => void load(cursor) : undefined;
  // After a failure: the page that failed again (the first, or the next one).
  const retry = () => void load(items.length && cursor ? cursor : undefined);
  return { items, loading, error, more, retry, loaded: cursor !== undefined };
}
