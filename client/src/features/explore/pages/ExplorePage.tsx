import { Link, useNavigate, useParams } from 'react-router-dom';
import ArrowRightOutlined from '@ant-design/icons/es/icons/ArrowRightOutlined';
import { PATHS } from '../../../lib/constants';
import { useAppSelector } from '../../../lib/storeHooks';
import { formatKnackPrice, knackUnit } from '../../../lib/formatKnackPrice';
import { selectIsPhone } from '../../../lib/ui';
import { ArtistStrip } from '../components/ArtistStrip';
import { ContentGrid, FIRST_ROW } from '../../../components/content/ContentGrid';
import { ExploreTabs } from '../../../components/content/ExploreTabs';
import { TagChips } from '../components/TagChips';
import { TagProblem } from '../components/TagProblem';
import { FEED_KIND_LABELS, emptyFeedMessage } from '../../../lib/feeds';
import { useContentFeed } from '../hooks/useContentFeed';
import { useExploreQuery } from '../hooks/useExploreQuery';
import { useTagFilter } from '../hooks/useTagFilter';
import '../components/explore.css';

/**
 * /explore and /explore/{tag}: the feeds (Popular, Featured by default, Trending, On the Radar)
 * filtered by a main tag or sub-tag (chips) and an artist (the strip), with infinite scroll. The tag is the
 * path; the tab and the artist are the query, so reload and back keep them.
 */
export default function ExplorePage() {
  const { tag: slug } = useParams();
  const navigate = useNavigate();
  const { tab, artistId, search, setTab, setArtist } = useExploreQuery();
  const filter = useTagFilter(slug);
  const tagReady = filter.status === 'none' || filter.status === 'found';
  const feed = useContentFeed({ kind: tab, tag: filter.main?.label, subTag: filter.sub?.label, ownerId: artistId }, tagReady);
  const shown = filter.sub ?? filter.main;
  const isPhone = useAppSelector(selectIsPhone);

  const chooseTag = (tagSlug: string | null) => void navigate({ pathname: tagSlug ? PATHS.exploreTag(tagSlug) : PATHS.explore, search });
  const viewAll = (
    <Link className="kn-view-all" to={PATHS.viewAll(tab, shown?.slug)}>
      View all <ArrowRightOutlined aria-hidden />
    </Link>
  );

  return (
    <div className="kn-explore">
      <header className="kn-page-head">
        <h1 className="kn-page-title">{shown ? `Explore ${shown.name}` : 'Explore'}</h1>
        <p className="kn-page-sub">
          {shown
            ? `Every ${knackUnit(shown.type)} of a monetized piece under ${shown.name} earns its creator ${formatKnackPrice(shown.knackPrice)}.`
            : 'Music, art and photos from independent creators, paid for every play and view.'}
        </p>
      </header>
      <TagChips groups={filter.groups} loading={filter.tagsLoading} main={filter.main} sub={filter.sub} onChoose={chooseTag} />
      <ArtistStrip selectedId={artistId} onSelect={setArtist} />
      <ExploreTabs active={tab} onChange={setTab} extra={isPhone ? undefined : viewAll}>
        {/* Phones: the tab bar needs its whole width for the four tabs; View all sits above the feed. */}
        {isPhone ? <div className="kn-tab-tools">{viewAll}</div> : null}
        {slug && !tagReady && filter.status !== 'loading' ? (
          <TagProblem slug={slug} filter={filter} />
        ) : (
          <ContentGrid
            {...feed}
            priorityCards={FIRST_ROW}
            label={`${FEED_KIND_LABELS[tab]} pieces`}
            empty={emptyFeedMessage(tab, shown?.name, Boolean(artistId))}
          />
        )}
      </ExploreTabs>
    </div>
  );
}
