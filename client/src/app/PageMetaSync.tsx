import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { pageMetaRequested } from '../features/cms';
import { useAppDispatch } from './hooks';
import { findRoute } from './routes';

/** On every route change, loads and applies the page's metadata (CMS, or the built-in defaults). */
export function PageMetaSync() {
  const { pathname } = useLocation();
  const dispatch = useAppDispatch();
  const metaPage = findRoute(pathname)?.metaPage;
  useEffect(() => {
    if (metaPage) dispatch(pageMetaRequested(metaPage));
  }, [metaPage, pathname, dispatch]);
  return null;
}
