import { searchMembers } from '../../api/generated/operations';
import { useTypeahead, type Typeahead } from '../../lib/useTypeahead';

export type MemberMatch = Awaited<ReturnType<typeof searchMembers>>['members'][number];

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
 * 250 ms. `items` keeps only the members of the latest answer whose username still starts with what is typed, so
 * typing on narrows the list at once and never offers a member the new text rules out.
 */
export function useMemberMatches(text: string): Typeahead<MemberMatch> {
  const query = text.trim().slice(0, QUERY_MAX_LENGTH);
  const { items, loading } = useTypeahead(
    query,
    MEMBER_SEARCH_DEBOUNCE_MS,
    async (q, signal) => (await searchMembers({ query: { q, limit: MEMBER_MATCHES_SHOWN } }, { signal, quiet: true })).members,
  );
  const start = asUsernameStart(query);
  return { items: items.filter((member) => member.username.startsWith(start)), loading };
}
