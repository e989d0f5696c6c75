import type { ReactNode } from 'react';
import { Button } from '../button';
import InboxOutlined from '@ant-design/icons/es/icons/InboxOutlined';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import type { Content } from '../../lib/content';
import type { CachedError } from '../../api/cache';
import type { PagedStatus } from '../../api/pagedList';
import { useOpenContent } from './useOpenContent';
import { ContentCard, ContentCardSkeleton } from './ContentCard';
import { LoadMore } from './LoadMore';
import './content.css';

/**
 * The props of a grid; a `PagedList<Content>` (usePagedList, useContentFeed) spreads straight in:
 * `<ContentGrid {...feed} label="Popular" />`. A fixed list passes `items` alone.
 */
export interface ContentGridProps {
  items: Content[];
  /** 'loading' (and 'idle': a list waiting to be enabled) shows skeleton cards; 'failed' the error with Retry. Default 'ready'. */
  status?: PagedStatus;
  error?: CachedError;
  hasMore?: boolean;
  loadingMore?: boolean;
  loadMore?: () => void;
  retry?: () => void;
  /** Load the next page when the end of the grid scrolls near (default true); else a button only. */
  autoLoad?: boolean;
  /** The list's accessible name. */
  label: string;
  /** What an empty list says (default: "Nothing here yet"). */
  empty?: ReactNode;
  /** How many skeleton cards show while loading. */
  skeletons?: number;
  /** Opens a piece; by default the content detail modal, stepping through this grid's pieces. */
  onOpen?: (content: Content, siblings: Content[]) => void;
  /** How many first cards are the page's first sight (their images load at once, first); default none. */
  priorityCards?: number;
  /** What a card shows over its thumbnail's corner (see ContentCard `extra`). */
  cardExtra?: (content: Content) => ReactNode;
}

/** Cards in a grid's first row on the widest screens: the ones a page shows first. */
export const FIRST_ROW = 5;

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <div className="kn-empty" role="status">
      <InboxOutlined className="kn-empty__icon" aria-hidden />
      <div className="kn-empty__text">{children}</div>
    </div>
  );
}

function LoadError({ error, onRetry }: { error?: CachedError; onRetry?: () => void }) {
  return (
    <div className="kn-empty kn-empty--error" role="alert">
      <div className="kn-empty__text">
        <strong>We couldn’t load these pieces.</strong>
        <span>{error?.message ?? 'Something went wrong.'}</span>
      </div>
      {onRetry ? (
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}

/**
 * A responsive grid of content cards: skeletons while the first page loads, an empty state, an error with
 * Retry, and infinite scroll with a "Load more" button beneath.
 */
export function ContentGrid({
  items,
  status = 'ready',
  error,
  hasMore = false,
  loadingMore = false,
  loadMore,
  retry,
  autoLoad = true,
  label,
  empty,
  skeletons = 8,
  priorityCards = 0,
  onOpen,
  cardExtra,
}: ContentGridProps) {
  const openDetail = useOpenContent();
  const open = onOpen ?? openDetail;

  if (status === 'loading' || status === 'idle') {
    // A labelled placeholder needs a role: an aria-label on a bare div is not announced (axe: aria-prohibited-attr).
    return (
      <div className="kn-grid" role="status" aria-busy="true" aria-label={`${label}: loading`}>
        {Array.from({ length: skeletons }, (_, index) => (
          <ContentCardSkeleton key={index} />
        ))}
      </div>
    );
  }
  if (status === 'failed') return <LoadError error={error} onRetry={retry} />;
  if (!items.length) return <EmptyState>{empty ?? 'Nothing here yet.'}</EmptyState>;

  const laterPageFailed = Boolean(error) && !loadingMore;
  return (
    <>
      <ul className="kn-grid" aria-label={label}>
        {items.map((content, index) => (
          <li key={content.id}>
            <ContentCard content={content} onOpen={(chosen) => open(chosen, items)} extra={cardExtra?.(content)} priority={index < priorityCards} />
          </li>
        ))}
      </ul>
      {loadMore ? (
        <LoadMore hasMore={hasMore} loading={loadingMore} failed={laterPageFailed} onLoadMore={laterPageFailed && retry ? retry : loadMore} auto={autoLoad} />
      ) : null}
    </>
  );
}
