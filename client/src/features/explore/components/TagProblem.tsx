import { Link } from 'react-router-dom';
import { Button } from '../../../components/button';
import { PATHS } from '../../../lib/constants';
import type { TagFilter } from '../hooks/useTagFilter';
import { EmptyState } from '../../../components/content/ContentGrid';

/** The tag of the URL could not be shown: it does not exist, or the tags could not be loaded. */
export function TagProblem({ slug, filter }: { slug: string; filter: TagFilter }) {
  if (filter.status === 'failed') {
    return (
      <div className="kn-empty kn-empty--error" role="alert">
        <div className="kn-empty__text">
          <strong>We couldn’t load the categories.</strong>
        </div>
        <Button onClick={filter.reload}>Retry</Button>
      </div>
    );
  }
  return (
    <EmptyState>
      There is no category called “{slug}”. <Link to={PATHS.explore}>Explore everything</Link>
    </EmptyState>
  );
}
