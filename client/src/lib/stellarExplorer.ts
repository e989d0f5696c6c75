/**
 * Links to a public Stellar explorer (stellar.expert) for what Knack puts on the network, and the short forms the app
 * shows of long hashes. A custom network has no public explorer: no link.
 */
import type { components } from '../../../generated/openapi';

export type StellarNetworkName = components['schemas']['StellarNetworkName'];

const EXPLORER = 'https://stellar.expert/explorer';
const EXPLORER_NETWORK: Partial<Record<StellarNetworkName, string>> = { testnet: 'testnet', public: 'public' };

/** The explorer's page of a transaction (by its hex hash) on the network, or null on a custom network. */
export function transactionExplorerUrl(network: StellarNetworkName, hash: string): string | null {
  const name = EXPLORER_NETWORK[network];
  return name ? `${EXPLORER}/${name}/tx/${encodeURIComponent(hash)}` : null;
}

/** A long hash as the app shows it: its first 6 and last 8 characters ('bafkre…xq3fhmea'). */
export function shortHash(hash: string): string {
  return hash.length > 15 ? `${hash.slice(0, 6)}…${hash.slice(-8)}` : hash;
}
