/**
 * features/share: the share modal (tabs Share, Embed, Message), opened with
 * `modalOpened({ name: 'share', contentId })`. The embeddable player page itself is its own entry (src/embed).
 */
export { shareIntent, embedSnippet, embedUrlOf, shareUrlOf, EMBED_OPTIONS, EMBED_SIZES, DEFAULT_EMBED_MASK, SHARE_SITES } from './share.links';
export type { SharedPiece, ShareSite, EmbedSizeKey } from './share.links';

/** The share modal's chunk. */
export const loadShareModal = () => import('./components/ShareModal');
export { InstagramReturn } from './components/InstagramReturn';
