/**
 * features/cms: page metadata (title and <meta> tags per page), the CMS footer, and the content pages (How It Works,
 * Earn, User Guide) and the blog, each a lazy chunk of its own.
 */
export { useAppliedPageMeta, type PageMetaVisit } from './useAppliedPageMeta';
export { defaultPageMeta } from './pageMeta.defaults';
export { useFooter, FOOTER_COLUMNS } from './useFooter';
export type { FooterData } from './useFooter';
export type { MetaPage, PageMeta, MetaItem, PageUi, PageUiSection, PageUiEntry } from './cms.types';
export const loadBecomePage = () => import('./pages/BecomePage');
export const loadEarningPage = () => import('./pages/EarningPage');
export const loadUserGuidePage = () => import('./pages/UserGuidePage');
export const loadBlogPage = () => import('./pages/BlogPage');
