/** What the tests read beyond the module's index: the mints' collection, and how an issuer is derived (to look for its secret). */
export { NftMintModel } from './nft.model';
export { issuerKeypairOf, issuerSeedOf } from './nft.issuer';
/** The members' lists of their mints. */
export { NftMintListModel } from './nft.lists';
