/** Stellar: the wallet a member links to their account (proven by a SEP-10 challenge). */
export { walletsRouter } from './wallets.routes';
export {
  createWalletsService,
  purgeExpiredWalletChallenges,
  WALLET_CHALLENGE_LIMIT,
  WALLET_LINK_LIMIT,
  WALLET_MESSAGES,
  type WalletsService,
} from './wallets.service';
export { removeWalletLinkOf, walletLinkExportOf } from './wallets.erasure';
export { shortAddress } from './stellar.address';
