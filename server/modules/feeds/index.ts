/** Feeds: the rankings, the ranked lists, search, artists, profiles and the detail of a piece. */
export { feedsRouter } from './feeds.routes';
export { createFeedsService, type FeedsService } from './feeds.service';
export { RANKINGS, RANKINGS_CONSUMER, rankingsState, refreshRankings, updateRankings, type FeedKind } from './feeds.rankings';
export { createLinkPreviews, previewTags, type LinkPreview } from './feeds.previews';
export { exploreFirstPaint } from './feeds.firstPaint';
export { searchIndexState } from './feeds.search';
export { buildFeedLists, feedListsState } from './feeds.lists';
