/** Contents: publishing pieces (classic, Top 50, artist page) and managing them. */
export { contentsRouter } from './contents.routes';
export { createContentsService, canSee, canView, withFinishedMedia, type ContentsService } from './contents.service';
export { ContentModel, contentReads, type ContentDoc } from './contents.model';
export { contentLink } from './contents.mapper';
export { migrateContents } from './contents.migrate';
export {
  countEmbedPlay,
  featureRankOf,
  initialRanking,
  markPaidOut,
  radarScoreOf,
  recordComment,
  recordReaction,
  setPieceTotals,
  type PieceTotals,
} from './contents.ranking';
