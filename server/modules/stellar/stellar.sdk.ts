/**
 * The Stellar SDK, loaded the first time a Stellar call needs it: loading it takes about half a second of CPU,
 * which neither the server's start nor any request that never touches Stellar should pay.
 */
export type StellarSdk = typeof import('@stellar/stellar-sdk');

let loading: Promise<StellarSdk> | undefined;

export const stellarSdk = (): Promise<StellarSdk> => (loading ??= import('@stellar/stellar-sdk'));
