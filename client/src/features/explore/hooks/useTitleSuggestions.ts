import { useEffect, useState } from 'react';
import { getTitleSuggestions } from '../../../api/generated/operations';
import type { TitleSuggestion } from '../explore.types';
import { QUERY_MAX_LENGTH, SUGGESTION_LIMIT, SUGGEST_DEBOUNCE_MS } from '../search';

const NONE: TitleSuggestion[] = [];

export interface TitleSuggestions {
  /** The suggestions of the latest answered query (kept while the next one loads); empty for no text. */
  items: TitleSuggestion[];
  /** A newer query than the one answered is waiting or on its way. */
  loading: boolean;
}

/**
 * Title suggestions for what is typed (at most 7): asked once typing pauses 200 ms; an older
 * request still running is aborted. A failure shows no suggestions (and no toast: Enter still searches).
 */
export function useTitleSuggestions(text: string): TitleSuggestions {
  const query = text.trim().slice(0, QUERY_MAX_LENGTH);
  const [answer, setAnswer] = useState<{ query: string; items: TitleSuggestion[] }>({ query: '', items: NONE });

  useEffect(() => {
    if (!query) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getTitleSuggestions({ query: { q: query, limit: SUGGESTION_LIMIT } }, { signal: controller.signal, quiet: true }).then(
        (result) => setAnswer({ query, items: result.titles.slice(0, SUGGESTION_LIMIT) }),
        () => {
          if (!controller.signal.aborted) setAnswer({ query, items: [] });
        },
      );
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  if (!query) return { items: NONE, loading: false };
  return { items: answer.items, loading: answer.query !== query };
}
