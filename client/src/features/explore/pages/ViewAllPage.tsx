import { Link, Navigate, useParams } from 'react-router-dom';
import ArrowLeftOutlined from '@ant-design/icons/es/icons/ArrowLeftOutlined';
import { PATHS } from '../../../lib/constants';
import { ContentGrid, FIRST_ROW } from '../../../components/content/ContentGrid';
import { TagProblem } from '../components/TagProblem';
import { emptyFeedMessage, FEED_KIND_LABELS, type FeedKind, isFeedKind } from '../../../lib/feeds';
import { useContentFeed } from '../hooks/useContentFeed';
import { useTagFilter } from '../hooks/useTagFilter';
import '../components/explore.css';

/** Back to Explore on the same tab and tag ('new' has no tab: Featured). */
function exploreLink(kind: FeedKind, tagSlug?: string): string {
  const path = tagSlug ? PATHS.exploreTag(tagSlug) : PATHS.explore;
  return kind === 'featured' || kind === 'new' ? path : `${path}?tab=${kind}`;
}

function ViewAll({ kind, slug }: { kind: FeedKind; slug?: string }) {
  const filter = useTagFilter(slug);
  const tagReady = filter.status === 'none' || filter.status === 'found';
  const feed = useContentFeed({ kind, tag: filter.main?.label, subTag: filter.sub?.label }, tagReady);
  const shown = filter.sub ?? filter.main;
  const title = shown ? `${FEED_KIND_LABELS[kind]} in ${shown.name}` : FEED_KIND_LABELS[kind];
  return (
    <div className="kn-explore">
      <header className="kn-page-head">
        <Link className="kn-back-link" to={exploreLink(kind, shown?.slug)}>
          <ArrowLeftOutlined aria-hidden /> Explore
        </Link>
        <h1 className="kn-page-title">{title}</h1>
      </header>
      {slug && !tagReady && filter.status !== 'loading' ? (
        <TagProblem slug={slug} filter={filter} />
      ) : (
        <ContentGrid {...feed} priorityCards={FIRST_ROW} label={title} empty={emptyFeedMessage(kind, shown?.name)} skeletons={12} />
      )}
    </div>
  );
}

/**
 * /viewall/{kind} and /viewall/{kind}/{sub}: the whole of one feed (featured, popular, trending, radar or
 * new), optionally under one tag (its slug), with infinite scroll. An unknown kind goes to Explore.
 */
export default function ViewAllPage() {
  const { kind, sub } = useParams();
  if (!isFeedKind(kind)) return <Navigate to={PATHS.explore} replace />;
  return <ViewAll key={`${kind}/${sub ?? ''}`} kind={kind} slug={sub} />;
}
