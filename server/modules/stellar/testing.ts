/** What the tests read beyond the module's index: the wallet link collections. */
export { WalletAddressModel, WalletChallengeModel, WalletChallengeUseModel, WalletLinkModel } from './wallets.model';
