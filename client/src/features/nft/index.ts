/**
 * features/nft: NFT mode on /nft. A piece is published as a Stellar token issued for it alone, its file pinned to
 * IPFS, in four steps (details, the optional TOML, the token, sign and save) signed by the member's own wallet. The
 * page, the flows and the wallet's code are lazy chunks; the state and the small saga that loads the flows are here.
 */
export { nftReducer, initialNftState, nftFormOpened } from './nft.slice';
export type { NftState } from './nft.slice';
export { nftSaga } from './nft.saga';

/** `/nft`: NFT mode for members, what it is for visitors. */
export const loadNftPage = () => import('./pages/NftPage');
