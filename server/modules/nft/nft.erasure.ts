/** A member's mints in "Download my data", and their removal when their account is deleted. */
import type { Schemas } from '../../lib/openapi-types';
import { mintsOfMember, removeMintListOf } from './nft.lists';
import { NftMintModel } from './nft.model';
import { nftMintView } from './nft.service';

/** The member's mints, the oldest first (read through their list). */
export async function nftMintsExportOf(userId: string): Promise<Schemas['NftMint'][]> {
  const mints = await mintsOfMember(userId);
  return mints.sort((a, b) => a._id.localeCompare(b._id)).map(nftMintView);
}

/**
 * Removes the member's mints (the tokens stay on the network, which no one can change), then their list; safe to
 * repeat. The mints are found by a filter on the member, not through their list: a deletion runs in the background,
 * once, and must reach every mint, even one made before the lists were kept.
 */
export async function removeNftMintsOf(userId: string): Promise<number> {
  const { deletedCount } = await NftMintModel.deleteMany({ memberId: userId });
  await removeMintListOf(userId);
  return deletedCount;
}
