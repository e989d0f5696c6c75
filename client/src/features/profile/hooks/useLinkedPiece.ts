import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useGetContentByLinkQuery } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { detailOpened } from '../../../lib/contentEvents';
import { selectContentDetail } from '../../content-detail';
import type { Content } from '../../../lib/content';
import { samePath } from '../../../lib/links';

/** The address arrived at a link (each arrival its own object); `toRead`: the modal does not show its piece yet. */
interface Arrival {
  link: string | undefined;
  toRead: boolean;
}

/**
 * The content page (a share link `/{username}-{slug}`): once the profile's first page is in, the piece is
 * read by its link and shown in the detail modal over the profile, its arrows walking the profile's pieces.
 * A link that names no piece leaves the profile (`fallback`) in its place (the error is toasted); a former link of a
 * piece (from before a sale or a rename) is replaced by the piece's link now.
 *
 * The piece opens once for each arrival at its link: closing the modal (which leaves the address a moment later)
 * does not open it again, a piece the arrows stepped to (shown already when the address follows) is not read, and
 * once opened the link is not read again.
 */
export function useLinkedPiece(username: string, slug: string | undefined, pieces: { items: Content[]; status: string }, fallback: string): void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const detail = useAppSelector(selectContentDetail);
  const link = slug ? `/${username}-${slug}` : undefined;
  const [arrival, setArrival] = useState<Arrival>({ link: undefined, toRead: false });
  if (arrival.link !== link) {
    const shownAlready = Boolean(link && detail.open && detail.content && samePath(detail.content.link, link));
    setArrival({ link, toRead: Boolean(link) && !shownAlready });
  }
  // Deferred as the list's items are: settled when the items it shows are the first page's, the modal's siblings.
  const listSettled = useDeferredValue(pieces.status === 'ready' || pieces.status === 'failed');
  const piece = useGetContentByLinkQuery({ path: { username, slug: slug ?? '' } }, { skip: !arrival.toRead || !listSettled });
  const items = useRef(pieces.items);
  items.current = pieces.items;
  const handled = useRef<Arrival | null>(null);

  useEffect(() => {
    if (!arrival.toRead || handled.current === arrival) return;
    if (piece.currentData) {
      handled.current = arrival;
      // A link from before the piece was sold (or its owner renamed) leads to its link now, over its owner's profile.
      const now = piece.currentData.content.link;
      if (arrival.link && !samePath(now, arrival.link)) return void navigate(now, { replace: true });
      dispatch(detailOpened({ content: piece.currentData.content, siblings: items.current }));
      // Read once per arrival: the piece's link may stop naming it while it is open (sold to another member, renamed),
      // and a refetch of the old link after the piece's data changes would only answer 404.
      setArrival({ link: arrival.link, toRead: false });
    } else if (piece.isError) {
      handled.current = arrival;
      void navigate(fallback, { replace: true });
    }
  }, [arrival, piece.currentData, piece.isError, fallback, dispatch, navigate]);
}
