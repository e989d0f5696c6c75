import { useEffect, useRef, useState } from 'react';

/** One empty list for every "nothing", so that a component's effects on the list do not run again for nothing. */
const NONE: never[] = [];

export interface Typeahead<T> {
  /** The items of the latest answered query (kept while the next one loads); empty for no text. */
  items: T[];
  /** A newer query than the one answered is waiting or on its way. */
  loading: boolean;
}

/**
 * What a search-as-you-type field lists for `query` (already trimmed and cut to the contract's length): asked once
 * typing pauses `debounceMs`; an older request still running is aborted. A failure lists nothing, and no toast is
 * raised: the field itself says when nothing matches.
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
