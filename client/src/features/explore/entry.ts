/**
 * features/explore, entry-chunk face: what the route table and the top navigation import. Kept apart from
 * index.ts so the grid, its cards and their styles stay in the lazy route chunks.
 */
export { SearchBox } from './components/SearchBox';
export type { SearchBoxProps } from './components/SearchBox';

/** /explore and /explore/{tag}. */
export const loadExplorePage = () => import('./pages/ExplorePage');
/** /viewall/{kind} and /viewall/{kind}/{sub}. */
export const loadViewAllPage = () => import('./pages/ViewAllPage');
/** /search/{slug}. */
export const loadSearchPage = () => import('./pages/SearchPage');
