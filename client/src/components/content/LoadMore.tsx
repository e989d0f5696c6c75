import { useEffect, useRef } from 'react';
import { Button } from '../button';
import './content.css';

export interface LoadMoreProps {
  hasMore: boolean;
  loading: boolean;
  /** A later page failed: the button says Retry. */
  failed?: boolean;
  onLoadMore: () => void;
  /** Load the next page when the button scrolls near the viewport (default true). */
  auto?: boolean;
  /** How far before the button comes into view the next page starts loading. */
  rootMargin?: string;
}

/**
 * The foot of a paged list: a "Load more" button, which an IntersectionObserver presses as it nears the
 * viewport (infinite scroll); without the observer, or with `auto` off, the button alone. The observer is
 * made again after each page, so a page too short to fill the screen is followed by the next one.
 */
export function LoadMore({ hasMore, loading, failed = false, onLoadMore, auto = true, rootMargin = '600px 0px' }: LoadMoreProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const onLoadMoreRef = useRef(onLoadMore);
  onLoadMoreRef.current = onLoadMore;
  const watching = auto && hasMore && !loading && !failed;

  useEffect(() => {
    const node = sentinel.current;
    if (!watching || !node || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadMoreRef.current();
      },
      { rootMargin },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [watching, rootMargin]);

  if (!hasMore && !failed) return null;
  return (
    <div className="kn-load-more" ref={sentinel}>
      <Button onClick={onLoadMore} loading={loading} size="large">
        {failed ? 'Retry' : loading ? 'Loading…' : 'Load more'}
      </Button>
    </div>
  );
}
