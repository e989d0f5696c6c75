/**
 * features/stellar: the member's Stellar wallet on the client: Freighter (connect, sign; its library loads at the
 * first use), the wallet list of the profile summary and the settings, and the wallet modal that links one (its
 * code loads when a wallet is chosen). Only lazy screens import this feature, so the page frame carries none of it.
 */
export { connectFreighter, signWithFreighter, WalletError, FREIGHTER_MESSAGES, FREIGHTER_INSTALL_URL } from './freighter';
export { WALLETS, walletName, networkName, shortAddress } from './wallets';
export type { ConnectableWallet, WalletKind, WalletLink } from './wallets';
export { WalletList } from './components/WalletList';
export { WalletSettings } from './components/WalletSettings';
export { useWalletModal } from './components/useWalletModal';
