/**
 * Freighter, the Stellar Development Foundation's browser wallet, through its own library (`@stellar/freighter-api`).
 * The library talks to the extension by window messages; it is loaded the first time a wallet is used, never with
 * the page. Whatever Freighter answers wrong is logged for us ('Freighter error') and the member sees a plain
 * sentence (a `WalletError`).
 */

/** A wallet step that did not happen, with the sentence the member sees. */
export class WalletError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WalletError';
  }
}

export const FREIGHTER_MESSAGES = {
  notInstalled: 'Freighter is not installed in this browser.',
  noAddress: 'Freighter did not share your address. Please try again.',
  notSigned: 'Freighter did not sign. Please try again.',
} as const;

/** Where a member gets Freighter. */
export const FREIGHTER_INSTALL_URL = 'https://www.freighter.app/';

type FreighterApi = typeof import('@stellar/freighter-api');

let api: Promise<FreighterApi> | undefined;
const freighterApi = () => (api ??= import('@stellar/freighter-api'));

function refuse(message: string, cause: unknown): never {
  console.error('Freighter error', cause);
  throw new WalletError(message);
}

/**
 * Whether the extension answers. Asked before any other call: when Freighter is not there, the library's other
 * calls would wait for an answer for ever, while this one gives up after two seconds.
 */
async function requireFreighter(freighter: FreighterApi): Promise<void> {
  let connected: Awaited<ReturnType<FreighterApi['isConnected']>>;
  try {
    connected = await freighter.isConnected();
  } catch (err) {
    refuse(FREIGHTER_MESSAGES.notInstalled, err);
  }
  if (!connected.isConnected) refuse(FREIGHTER_MESSAGES.notInstalled, connected.error ?? 'the extension did not answer');
}

/** Asks Freighter for the member's address (Freighter asks them to allow this site the first time): `G…`. */
export async function connectFreighter(): Promise<string> {
  const freighter = await freighterApi();
  await requireFreighter(freighter);
  let access: Awaited<ReturnType<FreighterApi['requestAccess']>>;
  try {
    access = await freighter.requestAccess();
  } catch (err) {
    refuse(FREIGHTER_MESSAGES.noAddress, err);
  }
  if (access.error || !access.address) refuse(FREIGHTER_MESSAGES.noAddress, access.error ?? 'no address');
  return access.address;
}

/**
 * Has Freighter sign a transaction (base64 XDR) for the network of `networkPassphrase` with the key of `address`;
 * answers the signed transaction (base64 XDR).
 */
export async function signWithFreighter(xdr: string, networkPassphrase: string, address: string): Promise<string> {
  const freighter = await freighterApi();
  await requireFreighter(freighter);
  let signed: Awaited<ReturnType<FreighterApi['signTransaction']>>;
  try {
    signed = await freighter.signTransaction(xdr, { networkPassphrase, address });
  } catch (err) {
    refuse(FREIGHTER_MESSAGES.notSigned, err);
  }
  if (signed.error || !signed.signedTxXdr) refuse(FREIGHTER_MESSAGES.notSigned, signed.error ?? 'no signed transaction');
  return signed.signedTxXdr;
}
