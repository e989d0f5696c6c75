import { useEffect, useState } from 'react';
import { searchMembers } from '../../api/generated/operations';

export type MemberMatch = Awaited<ReturnType<typeof searchMembers>>['members'][number];

/** The recipient list asks once typing pauses this long (ms). */
export const MEMBER_SEARCH_DEBOUNCE_MS = 250;
/** At most this many members in the recipient list. */
export const MEMBER_MATCHES_SHOWN = 8;
/** The contract's longest query. */
const QUERY_MAX_LENGTH = 80;

const NONE: MemberMatch[] = [];

/** What is typed as usernames are kept (lower-cased, spaces as underscores): the server matches their start with it. */
const asUsernameStart = (text: string) => text.trim().toLowerCase().replace(/\s+/g, '_');

export interface MemberMatches {
  /**
   * The members of the latest answered query whose username still starts with what is typed (kept while the next
   * answer loads, so typing on narrows the list at once and never offers a member the new text rules out).
   */
  items: MemberMatch[];
  /** A newer query than the one answered is waiting or on its way. */
  loading: boolean;
}

/**
 * Members whose username starts with what is typed, for the message modal's recipient list: asked once typing pauses
 * 250 ms; an older request still running is aborted. A failure shows no members (and no toast: the field says so).
 */
export function useMemberMatches(text: string): MemberMatches {
  const query = text.trim().slice(0, QUERY_MAX_LENGTH);
  const [answer, setAnswer] = useState<{ query: string; items: MemberMatch[] }>({ query: '', items: NONE });

  useEffect(() => {
    if (!query) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchMembers({ query: { q: query, limit: MEMBER_MATCHES_SHOWN } }, { signal: controller.signal, quiet: true }).then(
        (result) => setAnswer({ query, items: result.members }),
        () => {
          if (!controller.signal.aborted) setAnswer({ query, items: NONE });
        },
      );
    }, MEMBER_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  if (!query) return { items: NONE, loading: false };
  const start = asUsernameStart(query);
  return { items: answer.items.filter((member) => member.username.startsWith(start)), loading: answer.query !== query };
}
