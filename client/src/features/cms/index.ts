/** features/cms: page metadata (title and <meta> tags per page) and the CMS footer, read through the cache. */
export { useAppliedPageMeta, type PageMetaVisit } from './useAppliedPageMeta';
export { defaultPageMeta } from './pageMeta.defaults';
export { useFooter, FOOTER_COLUMNS } from './useFooter';
export type { FooterData } from './useFooter';
export type { MetaPage, PageMeta, MetaItem, PageUi, PageUiSection, PageUiEntry } from './cms.types';
