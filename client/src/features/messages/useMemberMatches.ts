import { useLazySearchMembersQuery } from '../../api/generated/endpoints';
import type { SearchMembersResult } from '../../api/generated/operations';
import { askCache, useTypeahead, type Typeahead } from '../../lib/useTypeahead';

export type MemberMatch = SearchMembersResult['members'][number];

/** The recipient list asks once typing pauses this long (ms). */
export const MEMBER_SEARCH_DEBOUNCE_MS = 250;
/** At most this many members in the recipient list. */
export const MEMBER_MATCHES_SHOWN = 8;
/** The contract's longest query. */
const QUERY_MAX_LENGTH = 80;

/** What is typed as usernames are kept (lower-cased, spaces as underscores): the server matches their start with it. */
const asUsernameStart = (text: string) => text.trim().toLowerCase().replace(/\s+/g, '_');

/**
 * Members whose username starts with what is typed, for the message modal's recipient list: asked once typing pauses
 * 250 ms, through the cache (a text typed again a moment later is answered without a request). `items` keeps only the
 * members of the latest answer whose username still starts with what is typed, so typing on narrows the list at once
 * and never offers a member the new text rules out.
 */
export function useMemberMatches(text: string): Typeahead<MemberMatch> {
  const query = text.trim().slice(0, QUERY_MAX_LENGTH);
  const [search] = useLazySearchMembersQuery();
  const { items, loading } = useTypeahead(query, MEMBER_SEARCH_DEBOUNCE_MS, async (q, signal) => {
    const read = search({ query: { q, limit: MEMBER_MATCHES_SHOWN }, quiet: 'the recipient list says when no username matches' }, true);
    return (await askCache(read, signal)).members;
  });
  const start = asUsernameStart(query);
  return { items: items.filter((member) => member.username.startsWith(start)), loading };
}
