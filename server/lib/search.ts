/**
 * Word-start search without `$text` (FerretDB lacks it): documents keep the lower-cased words of their
 * searchable text in an indexed array, and a query matches when each of its words starts one of them.
 */
const MAX_QUERY_WORDS = 5;

/** Lower-cased words of the texts (letters and digits of any script; `_` and `.` split words). */
export function wordsOf(...texts: string[]): string[] {
  const words = texts.flatMap((text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter(Boolean);
  return [...new Set(words)];
}

/** The words of a query that a search matches (at most MAX_QUERY_WORDS), lower-cased. */
export const queryWords = (query: string): string[] => wordsOf(query).slice(0, MAX_QUERY_WORDS);

/** Whether each of `words` starts one of `terms` (lower-cased words, as wordsOf gives them). */
export const startsEveryWord = (words: readonly string[], terms: readonly string[]): boolean =>
  words.every((word) => terms.some((term) => term.startsWith(word)));

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A condition on a lower-cased field: it starts with `text` (lower-cased here), taken as plain text. */
export const startsWith = (text: string): { $regex: string } => ({ $regex: `^${escapeRegex(text.toLowerCase())}` });

/**
 * Conditions on `field` (an array of words) matching every word of `query` at a word start (empty when the
 * query has no words). The caller puts them under `$and` in a filter it marks as its own (lib/query.ts `ours`).
 */
export function wordStartConditions(field: string, query: string): Record<string, { $regex: string }>[] {
  return wordsOf(query)
    .slice(0, MAX_QUERY_WORDS)
    .map((word) => ({ [field]: startsWith(word) }));
}

/** The share-link part of a title (lower-cased, spaces to hyphens), keeping only URL-safe letters. */
export function slugOf(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}\s-]+/gu, '')
    .trim()
    .replace(/[\s-]+/g, '-')
    .slice(0, 120);
}
