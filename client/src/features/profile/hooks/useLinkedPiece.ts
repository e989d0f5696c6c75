import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { getContentByLink } from '../../../api/generated/operations';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { detailOpened } from '../../../lib/contentEvents';
import { selectContentDetail } from '../../content-detail';
import type { Content } from '../../../lib/content';
import { samePath } from '../../../lib/links';

/**
 * The content page (a share link `/{username}-{slug}`): once the profile's first page is in, the piece is
 * read by its link and shown in the detail modal over the profile, its arrows walking the profile's pieces.
 * A link that names no piece leaves the profile (`fallback`) in its place (the error is toasted).
 */
export function useLinkedPiece(username: string, slug: string | undefined, pieces: { items: Content[]; status: string }, fallback: string): void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const detail = useAppSelector(selectContentDetail);
  const latest = useRef({ detail, items: pieces.items });
  latest.current = { detail, items: pieces.items };
  const listSettled = pieces.status === 'ready' || pieces.status === 'failed';

  useEffect(() => {
    if (!slug || !listSettled) return undefined;
    const link = `/${username}-${slug}`;
    const shown = latest.current.detail;
    // Stepping on the content page replaces the address with the next piece's link: it is shown already.
    if (shown.open && shown.content && samePath(shown.content.link, link)) return undefined;
    const controller = new AbortController();
    getContentByLink({ path: { username, slug } }, { signal: controller.signal }).then(
      ({ content }) => dispatch(detailOpened({ content, siblings: latest.current.items })),
      () => {
        if (!controller.signal.aborted) void navigate(fallback, { replace: true });
      },
    );
    return () => controller.abort();
  }, [username, slug, listSettled, fallback, dispatch, navigate]);
}
