/**
 * features/explore: the Explore feeds (Popular, Featured, Trending, On the Radar), /viewall, and search (the
 * top navigation's box with suggestions, the /search page). Other features reuse the content grid and card,
 * the paged-list hooks and the Explore tabs from here. The route table and the layout import ./entry instead
 * (page loaders and the search box), which keeps the grid out of the entry chunk.
 */
export { ContentGrid, EmptyState } from './components/ContentGrid';
export type { ContentGridProps } from './components/ContentGrid';
export { ContentCard, ContentCardSkeleton } from './components/ContentCard';
export type { ContentCardProps } from './components/ContentCard';
export { ArtistCard, ArtistGrid, artistName } from './components/ArtistCard';
export type { ArtistCardProps } from './components/ArtistCard';
export { ExploreTabs } from './components/ExploreTabs';
export type { ExploreTabsProps } from './components/ExploreTabs';
export { LoadMore } from './components/LoadMore';
export type { LoadMoreProps } from './components/LoadMore';
export { usePagedList } from './hooks/usePagedList';
export type { Page, PageLoader, PagedList, PagedStatus } from './hooks/usePagedList';
export { useContentFeed } from './hooks/useContentFeed';
export type { FeedFilters } from './hooks/useContentFeed';
export { useOpenContent } from './hooks/useOpenContent';
export { EXPLORE_TABS, DEFAULT_TAB, FEED_KIND_LABELS, FEED_PAGE_SIZE, isFeedKind } from './feedKinds';
export { SUGGESTION_LIMIT, SEARCH_BLUR_DELAY_MS, matchesQuery } from './search';
export type { Content, UserCard, TitleSuggestion, FeedKind } from './explore.types';
export * from './entry';
