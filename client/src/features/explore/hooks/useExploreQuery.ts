import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_TAB, type FeedKind, tabFromQuery } from '../../../lib/feeds';

const OBJECT_ID = /^[0-9a-f]{24}$/i;

export interface ExploreQuery {
  tab: FeedKind;
  /** The artist filter (`?artist=<id>`), if a valid id. */
  artistId?: string;
  /** The query string to carry over to another Explore path ('' or '?…'). */
  search: string;
  setTab: (kind: FeedKind) => void;
  setArtist: (artistId: string | null) => void;
}

/**
 * The Explore state kept in the URL query so it survives a reload and the back button: `?tab=` (absent for
 * Featured, the default) and `?artist=`. Each change is a new history entry.
 */
export function useExploreQuery(): ExploreQuery {
  const [params, setParams] = useSearchParams();
  const tab = tabFromQuery(params.get('tab'));
  const artist = params.get('artist');
  const artistId = artist && OBJECT_ID.test(artist) ? artist : undefined;

  const change = useCallback(
    (name: string, value: string | null) =>
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      }),
    [setParams],
  );
  const setTab = useCallback((kind: FeedKind) => change('tab', kind === DEFAULT_TAB ? null : kind), [change]);
  const setArtist = useCallback((id: string | null) => change('artist', id), [change]);
  const query = params.toString();
  return { tab, artistId, search: query ? `?${query}` : '', setTab, setArtist };
}
