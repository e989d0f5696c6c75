/**
 * NFTs: minting a piece as a Stellar token issued by an account made for it and locked in the same transaction, its
 * file pinned to IPFS, signed by the member's own wallet; and Knack's stellar.toml listing the tokens.
 */
export { nftRouter } from './nft.routes';
export { createNftService, NFT_MESSAGES, NFT_PREPARE_LIMIT, NFT_START_LIMIT, shortIpfsHash, type NftDeps, type NftService } from './nft.service';
export { stellarTomlRouter, TOML_MINTS, TOML_TTL_MS, type StellarTomlDeps } from './nft.toml';
export { nftMintsExportOf, removeNftMintsOf } from './nft.erasure';
export { forgetNftMintLists, nftMintListsState } from './nft.lists';
