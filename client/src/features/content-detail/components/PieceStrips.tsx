import { useState } from 'react';
import { useGetContentsByKindInfiniteQuery, useGetTrendingArtistsInfiniteQuery } from '../../../api/generated/endpoints';
import { useAppDispatch } from '../../../lib/storeHooks';
import { ArtistGrid } from '../../../components/content/ArtistCard';
import { ContentCard } from '../../../components/content/ContentCard';
import { DEFAULT_TAB, type FeedKind } from '../../../lib/feeds';
import { ExploreTabs } from '../../../components/content/ExploreTabs';
import { displayUsername } from '../../../lib/userNames';
import { detailOpened } from '../../../lib/contentEvents';
import type { Content } from '../../../lib/content';

/** Pieces one strip asks for. */
const STRIP_SIZE = 12;
/** 'Other artists you may like' shows the first 8. */
export const OTHER_ARTISTS = 8;

function StripSkeleton({ label }: { label: string }) {
  return (
    <div className="kn-strip kn-scroll-row" aria-busy="true" aria-label={`${label}: loading`}>
      {Array.from({ length: 5 }, (_, index) => (
        <span key={index} className="kn-strip__skeleton kn-skeleton" />
      ))}
    </div>
  );
}

/** A sideways row of pieces; choosing one shows it in the modal, the arrows then walk this row. */
function PieceRow({ label, pieces }: { label: string; pieces: Content[] }) {
  const dispatch = useAppDispatch();
  if (!pieces.length) return <p className="kn-strip__empty">Nothing here yet.</p>;
  return (
    <ul className="kn-strip kn-scroll-row" aria-label={label}>
      {pieces.map((piece) => (
        <li key={piece.id}>
          <ContentCard content={piece} onOpen={(chosen) => dispatch(detailOpened({ content: chosen, siblings: pieces }))} />
        </li>
      ))}
    </ul>
  );
}

/** The first page of one feed of GET /content/get-by-kind as a strip (`exceptId`: the piece already shown). */
function FeedStrip({ label, kind, ownerId, exceptId }: { label: string; kind: FeedKind; ownerId?: string; exceptId?: string }) {
  const feed = useGetContentsByKindInfiniteQuery({ path: { kind }, query: { ownerId, limit: STRIP_SIZE } });
  const page = feed.currentData?.pages[0];
  if (feed.isError && !page) return <p className="kn-strip__empty">These pieces could not be loaded.</p>;
  if (!page) return <StripSkeleton label={label} />;
  return <PieceRow label={label} pieces={page.contents.filter((piece) => piece.id !== exceptId)} />;
}

/** The Explore tabs in the modal (Popular, Featured, Trending, On the Radar), each a strip of its feed. */
export function ExploreStrip() {
  const [kind, setKind] = useState<FeedKind>(DEFAULT_TAB);
  return (
    <section className="kn-detail__section" aria-labelledby="kn-detail-explore">
      <h3 id="kn-detail-explore" className="kn-detail__section-title">
        Explore
      </h3>
      <ExploreTabs active={kind} onChange={setKind}>
        <FeedStrip label="Explore" kind={kind} />
      </ExploreTabs>
    </section>
  );
}

/** 'More from {artist}': the artist's newest pieces but the one shown. */
export function MoreFromArtist({ content }: { content: Content }) {
  const title = `More from ${displayUsername(content.ownerUsername)}`;
  return (
    <section className="kn-detail__section" aria-label={title}>
      <h3 className="kn-detail__section-title">{title}</h3>
      <FeedStrip label={title} kind="new" ownerId={content.ownerId} exceptId={content.id} />
    </section>
  );
}

/** 'Other artists you may like': the first 8 trending artists, the piece's owner left out. */
export function OtherArtists({ ownerId }: { ownerId: string }) {
  const trending = useGetTrendingArtistsInfiniteQuery({ query: { limit: OTHER_ARTISTS + 1 } });
  const artists = (trending.data?.pages[0]?.users ?? []).filter((card) => card.user.id !== ownerId).slice(0, OTHER_ARTISTS);
  if (!trending.isLoading && !artists.length) return null;
  return (
    <section className="kn-detail__section" aria-labelledby="kn-detail-artists">
      <h3 id="kn-detail-artists" className="kn-detail__section-title">
        Other artists you may like
      </h3>
      {trending.isLoading ? <StripSkeleton label="Other artists you may like" /> : <ArtistGrid cards={artists} label="Other artists you may like" />}
    </section>
  );
}
