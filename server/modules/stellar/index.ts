/**
 * Stellar: the wallet a member links to their account (proven by a SEP-10 challenge), and the calls that read the
 * Stellar network through Horizon (the XLM rate of a dollar, an account's check).
 */
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
export { stellarRouter } from './stellar.routes';
export {
  answerHorizonFailure,
  CHECK_ACCOUNT_LIMIT,
  createStellarService,
  MINIMUM_BALANCE_STROOPS,
  refusalInWords,
  STELLAR_MESSAGES,
  type StellarService,
} from './stellar.service';
