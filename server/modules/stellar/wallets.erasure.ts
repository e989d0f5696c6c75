/** A member's wallet link in "Download my data", and its removal when their account is deleted. */
import type { Schemas } from '../../lib/openapi-types';
import { WalletAddressModel, WalletChallengeModel, WalletChallengeUseModel, WalletLinkModel, type WalletLinkDoc } from './wallets.model';
import { walletLinkView } from './wallets.service';

export async function walletLinkExportOf(userId: string): Promise<Schemas['WalletLink']> {
  return walletLinkView(await WalletLinkModel.findById(userId).lean<WalletLinkDoc>());
}

/**
 * Removes the member's link, frees every address they hold, and forgets the challenges they asked for (each names
 * an address); safe to repeat.
 */
export async function removeWalletLinkOf(userId: string): Promise<number> {
  const memberId = { memberId: userId };
  const [addresses, challenges, uses, links] = await Promise.all([
    WalletAddressModel.deleteMany(memberId),
    WalletChallengeModel.deleteMany(memberId),
    WalletChallengeUseModel.deleteMany(memberId),
    WalletLinkModel.deleteOne({ _id: userId }),
  ]);
  return addresses.deletedCount + challenges.deletedCount + uses.deletedCount + links.deletedCount;
}
