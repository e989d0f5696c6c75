import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useAppliedPageMeta, type PageMetaVisit } from '../features/cms';
import { whenIdle } from '../lib/scheduling';
import { findRoute } from './routes';

/**
 * On every route change, loads and applies the page's metadata (CMS, or the built-in defaults), once the browser
 * is idle: no one sees it, and the first page's effects are a long task on a slow phone already. A route whose page
 * applies its own metadata forgets the previous visit, so that a late answer for the page before cannot overwrite it.
 */
export function PageMetaSync() {
  const { pathname } = useLocation();
  const metaPage = findRoute(pathname)?.metaPage;
  const [visited, setVisited] = useState<PageMetaVisit | null>(null);
  useEffect(() => {
    if (!metaPage) {
      setVisited(null);
      return undefined;
    }
    return whenIdle(() => setVisited({ page: metaPage, visit: pathname }));
  }, [metaPage, pathname]);
  useAppliedPageMeta(visited);
  return null;
}
