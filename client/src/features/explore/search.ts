/** Search limits and timings, and matching. */

/** At most this many title suggestions under the search box. */
export const SUGGESTION_LIMIT = 7;
/** Suggestions are asked for once typing pauses this long (ms). */
export const SUGGEST_DEBOUNCE_MS = 200;
/** The suggestions close this long after the search box loses focus (ms). */
export const SEARCH_BLUR_DELAY_MS = 400;
/** The contract's longest query. */
export const QUERY_MAX_LENGTH = 80;

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * Whether every word of the query starts a word of the text ("hip h" matches "Hip Hop", "art" matches
 * "Digital Art"): the same rule as the server's title and artist search.
 */
export function matchesQuery(text: string, query: string): boolean {
  const wanted = words(query);
  if (!wanted.length) return false;
  const have = words(text);
  return wanted.every((word) => have.some((candidate) => candidate.startsWith(word)));
}
