import { useCallback, useMemo, useState } from 'react';
import { getContentsByUsername, getSupportedContents } from '../../../api/generated/operations';
import { usePagedList, type PagedList } from '../../../lib/usePagedList';
import type { TagType } from '../../../lib/tags';
import type { Content } from '../../../lib/content';

/** Pieces one page of a profile asks for. */
export const PROFILE_PAGE_SIZE = 24;

/**
 * A member's uploads, newest first, optionally of one type (the member themself also gets private ones).
 * A new `version` (the id of a piece just uploaded) loads the list again.
 */
export function useUploads(username: string | undefined, type?: TagType, version?: string): PagedList<Content> {
  const key = username ? JSON.stringify(['uploads', username, type ?? null, version ?? null]) : null;
  return usePagedList<Content>(key, async (cursor, signal) => {
    const page = await getContentsByUsername({ path: { username: username! }, query: { type, cursor, limit: PROFILE_PAGE_SIZE } }, { signal });
    return { items: page.contents, nextCursor: page.nextCursor };
  });
}

/** The member's collection: the pieces they paid the listing fee for. */
export function useCollection(userId: string | undefined): PagedList<Content> {
  const key = userId ? JSON.stringify(['supported', userId]) : null;
  return usePagedList<Content>(key, async (cursor, signal) => {
    const page = await getSupportedContents({ path: { id: userId! }, query: { cursor, limit: PROFILE_PAGE_SIZE } }, { signal });
    return { items: page.contents, nextCursor: page.nextCursor };
  });
}

/** A list from which pieces can be taken out here (after a removal) without loading it again. */
export function useWithoutRemoved(list: PagedList<Content>): PagedList<Content> & { remove: (id: string) => void } {
  const [removed, setRemoved] = useState<ReadonlySet<string>>(() => new Set());
  const remove = useCallback((id: string) => setRemoved((ids) => new Set(ids).add(id)), []);
  const items = useMemo(() => list.items.filter((piece) => !removed.has(piece.id)), [list.items, removed]);
  return { ...list, items, remove };
}
