/**
 * features/explore: the Explore feeds (Popular, Featured, Trending, On the Radar), /viewall, and search (the
 * top navigation's box with suggestions, the /search page). The route table and the layout import this file,
 * so it stays light: the pages are lazy chunks loaded through here, and the content grid and cards they show
 * are shared components (components/content).
 */
export { SearchBox } from './components/SearchBox';
export type { SearchBoxProps } from './components/SearchBox';
export { SUGGESTION_LIMIT, SEARCH_BLUR_DELAY_MS, matchesQuery } from './search';
export type { TitleSuggestion } from './explore.types';

/** /explore and /explore/{tag}. */
export const loadExplorePage = () => import('./pages/ExplorePage');
/** /viewall/{kind} and /viewall/{kind}/{sub}. */
export const loadViewAllPage = () => import('./pages/ViewAllPage');
/** /search/{slug}. */
export const loadSearchPage = () => import('./pages/SearchPage');
