import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeLatest } from 'redux-saga/effects';
import { getPageMeta, type GetPageMetaResult } from '../../api/generated/operations';
import { toApiError } from '../../api/http';
import { applyPageMeta } from './applyPageMeta';
import { pageMetaFailed, pageMetaLoaded, pageMetaRequested, type CmsState } from './cms.slice';
import type { MetaPage, PageMeta } from './cms.types';
import { defaultPageMeta } from './pageMeta.defaults';

const selectCachedMeta = (state: { cms: CmsState }, page: MetaPage) => state.cms.pageMetas[page];

/** Loads the page's metadata from the CMS (once per page) and applies it; the built-in defaults on failure. */
export function* loadPageMeta(action: PayloadAction<MetaPage>): SagaIterator {
  const page = action.payload;
  const cached: PageMeta | undefined = yield select(selectCachedMeta, page);
  if (cached) {
    yield call(applyPageMeta, cached);
    return;
  }
  try {
    const result: GetPageMetaResult = yield call(getPageMeta, { path: { page } });
    yield call(applyPageMeta, result.pageMeta);
    yield put(pageMetaLoaded({ page, pageMeta: result.pageMeta }));
  } catch (error) {
    yield call(applyPageMeta, defaultPageMeta(page));
    yield put(pageMetaFailed({ page, message: toApiError(error).message }));
  }
}

export function* cmsSaga(): SagaIterator {
  yield takeLatest(pageMetaRequested.type, loadPageMeta);
}
