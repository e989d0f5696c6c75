/**
 * The content detail modal and the address bar (the URL is the piece's share link while the modal
 * is open, so a reload opens the content page). Opening from a page pushes an entry whose history state
 * names the page behind (`background`): the router keeps rendering that page under the modal, and closing
 * goes back. The content page (`/{username}-{slug}`, opened from outside) shows the modal over the owner's
 * profile; closing it there replaces the address with the profile.
 */
import type { Location, Path } from 'react-router-dom';

export interface DetailEntryState {
  contentDetail: { background: Path };
}

/** The page behind the modal, when this history entry was pushed by opening the modal. */
export function detailBackground(location: Pick<Location, 'state'>): Location | undefined {
  const state = location.state as Partial<DetailEntryState> | null | undefined;
  const background = state?.contentDetail?.background;
  if (!background || typeof background.pathname !== 'string') return undefined;
  return { key: 'content-detail-background', state: null, pathname: background.pathname, search: background.search ?? '', hash: background.hash ?? '' };
}

export function entryState(behind: Pick<Location, 'pathname' | 'search' | 'hash'>): DetailEntryState {
  return { contentDetail: { background: { pathname: behind.pathname, search: behind.search, hash: behind.hash } } };
}
