/**
 * features/stellar: the member's Stellar wallet on the client: Freighter (connect, sign), loaded only when a wallet
 * is used.
 */
export { connectFreighter, signWithFreighter, WalletError, FREIGHTER_MESSAGES, FREIGHTER_INSTALL_URL } from './freighter';
