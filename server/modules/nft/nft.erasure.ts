/** A member's mints in "Download my data", and their removal when their account is deleted. */
import type { Schemas } from '../../lib/openapi-types';
import { NftMintModel, type NftMintDoc } from './nft.model';
import { nftMintView } from './nft.service';

export async function nftMintsExportOf(userId: string): Promise<Schemas['NftMint'][]> {
  const mints = await NftMintModel.find({ memberId: userId }).sort({ _id: 1 }).lean<NftMintDoc[]>();
  return mints.map(nftMintView);
}

/** Removes the member's mints (the tokens stay on the network, which no one can change); safe to repeat. */
export async function removeNftMintsOf(userId: string): Promise<number> {
  return (await NftMintModel.deleteMany({ memberId: userId })).deletedCount;
}
