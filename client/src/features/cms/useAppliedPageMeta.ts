import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect } from 'react';
import { useGetPageMetaQuery } from '../../api/generated/endpoints';
import { applyPageMeta } from './applyPageMeta';
import type { MetaPage } from './cms.types';

/** One visit of a page that has metadata: `visit` tells two visits of the same page apart (the path). */
export interface PageMetaVisit {
  page: MetaPage;
  visit: string;
}

/**
 * Applies the metadata of the page visited: the CMS's, read through the cache (a page visited a moment ago applies
 * at once, with no new request), or the built-in defaults when the CMS call failed (asked again on the next visit).
 * Each visit applies it again: the document may have changed since.
 */
export function useAppliedPageMeta(visited: PageMetaVisit | null): void {
  const page = visited?.page;
  const { currentData, isError } = useGetPageMetaQuery(page ? { path: { page } } : skipToken);
  const visit = visited?.visit;
  useEffect(() => {
    if (!page) return;
    if (currentData) {
      applyPageMeta(currentData.pageMeta);
      return undefined;
    }
    if (!isError) return undefined;
    // The defaults are loaded only when the CMS has failed: the first page's scripts need not carry them.
    let current = true;
    void import('./pageMeta.defaults').then(({ defaultPageMeta }) => {
      if (current) applyPageMeta(defaultPageMeta(page));
    });
    return () => {
      current = false;
    };
  }, [page, visit, currentData, isError]);
}
