/** Share and embed: invites by email, the embed player's play count, and the embed page's headers. */
export { shareRouter } from './share.routes';
export {
  createShareService,
  embedPlayCounts,
  embedPlaysBetween,
  firstEmbedPlayAt,
  SHARE_MESSAGES,
  INVITE_LIMIT,
  type ShareService,
  type Visitor,
} from './share.service';
export { EmbedPlayModel, type EmbedPlayDoc } from './share.model';
export { repairEmbedPlayKeys } from './embed-plays.repair';
export { securityHeaders, EMBED_PAGE } from './embed.headers';
