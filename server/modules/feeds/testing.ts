/**
 * What tests (and the seed and bench scripts) use of this module beyond its index.ts: the page cursor's encoding and
 * the reaction days' model. Production code never imports this file (the linter refuses it): other modules use the
 * index.
 */
export { encodeCursor } from './feeds.cursor';
export { feedListOf } from './feeds.service';
export { ReactionDayModel } from './reactions.model';
export { FeedListModel, feedListsState, PAGE_IDS } from './feeds.lists';
export { RankingStateModel, checkRankings } from './feeds.rankings';
