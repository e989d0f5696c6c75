import { useEffect, useRef, useState } from 'react';

/** One empty list for every "nothing", so that a component's effects on the list do not run again for nothing. */
const NONE: never[] = [];

export interface Typeahead<T> {
  /** The items of the latest answered query (kept while the next one loads); empty for no text. */
  items: T[];
  /** A newer query than the one answered is waiting or on its way. */
  loading: boolean;
}

/** A read started through the cache (what a generated `useLazyXQuery` trigger answers). */
export interface CachedRead<T> {
  unwrap: () => Promise<T>;
  abort: () => void;
}

/**
 * A read of the cache as `useTypeahead` asks it: the answer, with the request aborted when `signal` is (the query
 * typed on). An answer the cache holds already (the same text typed a moment ago) comes back without a request.
 */
export function askCache<T>(read: CachedRead<T>, signal: AbortSignal): Promise<T> {
  signal.addEventListener('abort', () => read.abort(), { once: true });
  return read.unwrap();
}

/**
 * What a search-as-you-type field lists for `query` (already trimmed and cut to the contract's length): asked once
 * typing pauses `debounceMs`; an older request still running is aborted. A failure lists nothing, and no toast is
 * raised: the field itself says when nothing matches. `ask` reads through the cache (`askCache` with a generated
 * lazy query's trigger); the list kept here is what the field shows, the latest answer, while the next one loads.
 */
export function useTypeahead<T>(query: string, debounceMs: number, ask: (query: string, signal: AbortSignal) => Promise<T[]>): Typeahead<T> {
  const [answer, setAnswer] = useState<{ query: string; items: T[] }>({ query: '', items: NONE });
  // The latest `ask`, without asking again when only the function (new on every render) changed.
  const askRef = useRef(ask);
  askRef.current = ask;

  useEffect(() => {
    if (!query) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      askRef.current(query, controller.signal).then(
        (items) => setAnswer({ query, items }),
        () => {
          if (!controller.signal.aborted) setAnswer({ query, items: NONE });
        },
      );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, debounceMs]);

  if (!query) return { items: NONE, loading: false };
  return { items: answer.items, loading: answer.query !== query };
}
