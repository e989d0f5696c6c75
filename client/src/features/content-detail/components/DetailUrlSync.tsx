import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { detailClosed } from '../contentDetail.slice';
import { selectContentDetail } from '../contentDetail.selectors';
import { detailBackground, entryState } from '../detailHistory';
import { isTagType, parsePath, profilePath, samePath } from '../../../lib/links';

/**
 * Keeps the address bar on the open piece (see detailHistory.ts). Rendered once, outside the routes, so it
 * sees the real location:
 * - opened over a page: push the share link (the entry remembers the page behind); stepping replaces it;
 * - its address was left (the back button, a link): the modal closes;
 * - closed on its entry: go back; closed on the content page: the owner's profile replaces it;
 * - an entry reached while closed (a reload, the forward button): it becomes the content page.
 */
export function DetailUrlSync() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { open, content } = useAppSelector(selectContentDetail);
  const link = open ? content?.link : undefined;
  /** The link shown at the last run (undefined: closed). */
  const lastLink = useRef<string | undefined>(undefined);
  /** The open piece has been shown at an address of its own (its entry or the content page). */
  const shown = useRef(false);

  useEffect(() => {
    const background = detailBackground(location);
    const here = location.pathname;
    const contentPage = parsePath(here)?.kind === 'content';
    const wasOpen = lastLink.current !== undefined;
    const stepped = link !== lastLink.current;
    lastLink.current = link;
    if (link) {
      if (background || contentPage) {
        shown.current = true;
        // Another piece is shown: its link replaces the address. (A content page reached by a link with the
        // modal open is left to the page, which opens its own piece.)
        if (stepped && !samePath(here, link)) void navigate(link, { replace: true, state: location.state as unknown });
      } else if (shown.current) {
        shown.current = false;
        dispatch(detailClosed());
      } else {
        void navigate(link, { state: entryState(location) });
      }
    } else {
      shown.current = false;
      const target = parsePath(here);
      if (background) {
        if (wasOpen) void navigate(-1);
        else void navigate(here, { replace: true, state: null });
      } else if (wasOpen && target?.kind === 'content') {
        void navigate(profilePath(target.username, isTagType(target.sub) ? target.sub : undefined), { replace: true });
      }
    }
  }, [link, location, navigate, dispatch]);

  return null;
}
