import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { MetaPage, PageMeta } from './cms.types';

export interface CmsState {
  /** The page whose metadata is applied (or being loaded). */
  currentPage: MetaPage | null;
  /** Metadata loaded from the CMS, by page: loaded once per visit. */
  pageMetas: Partial<Record<MetaPage, PageMeta>>;
  /** True when the current page shows the built-in defaults because the CMS call failed. */
  usingDefaults: boolean;
}

export const initialCmsState: CmsState = { currentPage: null, pageMetas: {}, usingDefaults: false };

const cmsSlice = createSlice({
  name: 'cms',
  initialState: initialCmsState,
  reducers: {
    pageMetaRequested(state, action: PayloadAction<MetaPage>) {
      state.currentPage = action.payload;
    },
    pageMetaLoaded(state, action: PayloadAction<{ page: MetaPage; pageMeta: PageMeta }>) {
      state.pageMetas[action.payload.page] = action.payload.pageMeta;
      state.usingDefaults = false;
    },
    pageMetaFailed(state, _action: PayloadAction<{ page: MetaPage; message: string }>) {
      state.usingDefaults = true;
    },
  },
});

export const { pageMetaRequested, pageMetaLoaded, pageMetaFailed } = cmsSlice.actions;
export const cmsReducer = cmsSlice.reducer;
