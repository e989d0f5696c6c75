import type { NftState } from './nft.slice';

type WithNft = { nft: NftState };

export const selectNft = (state: WithNft) => state.nft;
