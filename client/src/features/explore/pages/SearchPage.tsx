import { useMemo, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useSearchContentsInfiniteQuery, useSearchOwnersInfiniteQuery } from '../../../api/generated/endpoints';
import type { SearchContentsResult, SearchOwnersResult } from '../../../api/generated/operations';
import { usePagedList, type PagedList } from '../../../api/pagedList';
import { PATHS } from '../../../lib/constants';
import { formatKnackPricePer } from '../../../lib/formatKnackPrice';
import { typeStyle } from '../../../lib/tagColors';
import type { Tag } from '../../../lib/tags';
import { TypeIcon } from '../../../components/tags/TypeIcon';
import { ArtistGrid } from '../../../components/content/ArtistCard';
import { ContentGrid, EmptyState } from '../../../components/content/ContentGrid';
import { LoadMore } from '../../../components/content/LoadMore';
import type { Content, UserCard } from '../../../lib/content';
import { FEED_PAGE_SIZE } from '../../../lib/feeds';
import { useTagFilter } from '../hooks/useTagFilter';
import { QUERY_MAX_LENGTH, matchesQuery } from '../search';
import '../components/explore.css';

type ArtistHit = UserCard & { id: string };

/** Artists one page of results asks for. */
const ARTIST_PAGE_SIZE = 12;

const titlesOf = (page: SearchContentsResult) => page.contents;
const artistsOf = (page: SearchOwnersResult): ArtistHit[] => page.users.map((card) => ({ ...card, id: card.user.id }));

function useTitleResults(query: string): PagedList<Content> {
  return usePagedList(useSearchContentsInfiniteQuery({ query: { q: query, limit: FEED_PAGE_SIZE } }, { skip: !query }), titlesOf);
}

function useArtistResults(query: string): PagedList<ArtistHit> {
  return usePagedList(useSearchOwnersInfiniteQuery({ query: { q: query, limit: ARTIST_PAGE_SIZE } }, { skip: !query }), artistsOf);
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="kn-results" aria-labelledby={id}>
      <h2 id={id} className="kn-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

function ArtistResults({ query, artists }: { query: string; artists: PagedList<ArtistHit> }) {
  if (artists.status === 'loading') {
    return (
      <div className="kn-artist-grid" aria-busy="true" aria-label="Artists: loading">
        {Array.from({ length: 4 }, (_, index) => (
          <span key={index} className="kn-skeleton kn-artist-skeleton" />
        ))}
      </div>
    );
  }
  if (!artists.items.length) return <EmptyState>{artists.status === 'failed' ? 'We couldn’t search the artists.' : `No artists match “${query}”.`}</EmptyState>;
  return (
    <>
      <ArtistGrid cards={artists.items} label="Artists found" />
      <LoadMore
        hasMore={artists.hasMore}
        loading={artists.loadingMore}
        failed={Boolean(artists.error)}
        onLoadMore={artists.error ? artists.retry : artists.loadMore}
        auto={false}
      />
    </>
  );
}

function TagResults({ query, tags }: { query: string; tags: Tag[] }) {
  if (!tags.length) return <EmptyState>No tags match “{query}”.</EmptyState>;
  return (
    <ul className="kn-tag-results" aria-label="Tags found">
      {tags.map((tag) => (
        <li key={tag.id}>
          <Link className="kn-type-pill kn-tag-result" to={PATHS.exploreTag(tag.slug)} style={typeStyle(tag.type)}>
            <TypeIcon type={tag.type} />
            <span className="kn-tag-result__name">{tag.name}</span>
            <span className="kn-tag-result__price">{formatKnackPricePer(tag.knackPrice, tag.type)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * /search/{query}: everything matching the query in three sections: titles (paged, "Load more"), artists,
 * and the categories (tags) whose names match, each linking to its Explore page.
 */
export default function SearchPage() {
  const { slug } = useParams();
  const query = (slug ?? '').trim().slice(0, QUERY_MAX_LENGTH);
  const titles = useTitleResults(query);
  const artists = useArtistResults(query);
  const { groups } = useTagFilter(undefined);
  const tags = useMemo(
    () => (query ? groups.flatMap((group) => [group.main, ...group.subTags]).filter((tag) => matchesQuery(tag.name, query)) : []),
    [groups, query],
  );

  if (!query) {
    return (
      <div className="kn-explore">
        <header className="kn-page-head">
          <h1 className="kn-page-title">Search</h1>
          <p className="kn-page-sub">Type a title, an artist or a category in the search box at the top.</p>
        </header>
      </div>
    );
  }
  return (
    <div className="kn-explore">
      <header className="kn-page-head">
        <h1 className="kn-page-title">Results for “{query}”</h1>
      </header>
      <Section id="kn-results-titles" title="Titles">
        <ContentGrid {...titles} label="Titles found" autoLoad={false} empty={`No titles match “${query}”.`} />
      </Section>
      <Section id="kn-results-artists" title="Artists">
        <ArtistResults query={query} artists={artists} />
      </Section>
      <Section id="kn-results-tags" title="Tags">
        <TagResults query={query} tags={tags} />
      </Section>
    </div>
  );
}
