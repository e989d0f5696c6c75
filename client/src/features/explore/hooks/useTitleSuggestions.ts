import { useLazyGetTitleSuggestionsQuery } from '../../../api/generated/endpoints';
import { askCache, useTypeahead, type Typeahead } from '../../../lib/useTypeahead';
import type { TitleSuggestion } from '../explore.types';
import { QUERY_MAX_LENGTH, SUGGESTION_LIMIT, SUGGEST_DEBOUNCE_MS } from '../search';

export type TitleSuggestions = Typeahead<TitleSuggestion>;

/**
 * Title suggestions for what is typed (at most 7): asked once typing pauses 200 ms; an older request still running
 * is aborted; a text typed again a moment later is answered from the cache. A failure shows no suggestions (and no
 * toast: Enter still searches).
 */
export function useTitleSuggestions(text: string): TitleSuggestions {
  const [suggest] = useLazyGetTitleSuggestionsQuery();
  return useTypeahead(text.trim().slice(0, QUERY_MAX_LENGTH), SUGGEST_DEBOUNCE_MS, async (q, signal) => {
    const read = suggest({ query: { q, limit: SUGGESTION_LIMIT }, quiet: 'the box says when no title matches, and Enter still searches' }, true);
    return (await askCache(read, signal)).titles.slice(0, SUGGESTION_LIMIT);
  });
}
