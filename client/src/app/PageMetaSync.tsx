import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { pageMetaRequested } from '../features/cms';
import { whenIdle } from '../lib/scheduling';
import { useAppDispatch } from '../lib/storeHooks';
import { findRoute } from './routes';

/**
 * On every route change, loads and applies the page's metadata (CMS, or the built-in defaults), once the browser
 * is idle: no one sees it, and the first page's effects are a long task on a slow phone already.
 */
export function PageMetaSync() {
  const { pathname } = useLocation();
  const dispatch = useAppDispatch();
  const metaPage = findRoute(pathname)?.metaPage;
  useEffect(() => {
    if (!metaPage) return undefined;
    return whenIdle(() => dispatch(pageMetaRequested(metaPage)));
  }, [metaPage, pathname, dispatch]);
  return null;
}
