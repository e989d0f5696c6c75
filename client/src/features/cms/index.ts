/** features/cms: page metadata (title and <meta> tags per page) and the CMS footer. */
export { cmsReducer, pageMetaRequested, pageMetaLoaded, pageMetaFailed, initialCmsState } from './cms.slice';
export type { CmsState } from './cms.slice';
export { cmsSaga } from './cms.saga';
export { applyPageMeta } from './applyPageMeta';
export { defaultPageMeta } from './pageMeta.defaults';
export { useFooter, FOOTER_COLUMNS } from './useFooter';
export type { FooterData } from './useFooter';
export type { MetaPage, PageMeta, MetaItem, PageUi, PageUiSection, PageUiEntry } from './cms.types';
