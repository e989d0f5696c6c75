/** Contents: publishing pieces (classic, Top 50, artist page) and managing them. */
export { contentFilesRouter, contentsRouter } from './contents.routes';
export {
  createContentsService,
  canSee,
  canView,
  withFinishedMedia,
  TOP50_MESSAGES,
  TOP50_VISITOR_LIMITS,
  type ContentNft,
  type ContentsService,
  type PieceToPublish,
  type WaitingAccountFor,
} from './contents.service';
export { ContentModel, contentReads, type ContentDoc } from './contents.model';
export { FILE_MESSAGES, FILE_VERSION_KEPT_MS } from './contents.files';
export { contentLink, shownCount, type CountReader } from './contents.mapper';
export { FormerLinkModel, pieceByFormerLink, renameOwner, transferOwner } from './contents.owner';
export { handOverSupportedPieces, piecesExportOf, removePiecesOf } from './contents.erasure';
export { migrateContents } from './contents.migrate';
export {
  deleteChainEntries,
  everyOwnerChainEntry,
  forgetPieceChains,
  notePieceOwned,
  ownerChainDown,
  ownerChainEnd,
  ownerChainOf,
  pieceChainEntryId,
  pieceChangesBetween,
  pieceChangesEnd,
  pieceChangesSince,
  rewriteOwnerChains,
  type PieceChainEntry,
} from './contents.chains';
export { ensurePieceLinks, pieceAtLink, pieceLinksState } from './contents.links';
export {
  clearProject,
  forgetProjectPieces,
  MAX_PIECES_PER_PROJECT,
  piecesOfProject,
  projectPiecesState,
  setPieceProject,
  setPiecesProject,
  type ProjectOwnerCheck,
} from './contents.projects';
export { contentVersionsState, forgetVersionChains } from './contents.versions';
export { forgetSupportedPieces, noteSupported, supportChangesEnd, supportedPiecesDown, supportedPiecesEnd, supportedPiecesState } from './contents.supported';
export {
  countEmbedPlay,
  featureRankOf,
  initialRanking,
  markPaidOut,
  RADAR_WINDOW_DAYS,
  radarScoreOf,
  recordComment,
  recordReaction,
  setPieceTotals,
  type PieceTotals,
} from './contents.ranking';
export { listedPiecesMatching, titleIndexState } from './contents.search';
