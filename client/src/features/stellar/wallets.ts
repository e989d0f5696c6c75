import type { GetWalletLinkResult } from '../../api/generated/operations';

export type WalletLink = GetWalletLinkResult;
export type WalletKind = NonNullable<WalletLink['wallet']>;
/** The wallets a member can link from Knack's screens; Ledger and Trezor are listed but cannot be used here. */
export type ConnectableWallet = Extract<WalletKind, 'freighter' | 'external'>;

/** The wallet list, in the order the screens show it. */
export const WALLETS: readonly { kind: WalletKind; name: string; connectable: boolean }[] = [
  { kind: 'freighter', name: 'Freighter', connectable: true },
  { kind: 'ledger', name: 'Ledger', connectable: false },
  { kind: 'trezor', name: 'Trezor', connectable: false },
  { kind: 'external', name: 'External Wallet', connectable: true },
];

export const walletName = (kind: WalletKind) => WALLETS.find((wallet) => wallet.kind === kind)?.name ?? kind;

const NETWORK_NAMES: Record<NonNullable<WalletLink['network']>, string> = { testnet: 'Testnet', public: 'Mainnet', custom: 'Custom network' };
export const networkName = (network: NonNullable<WalletLink['network']>) => NETWORK_NAMES[network];

/** The network a challenge is signed for, as wallets name it (Stellar Laboratory, Freighter), from its passphrase. */
export function networkOfPassphrase(passphrase: string): string {
  if (passphrase === 'Test SDF Network ; September 2015') return 'Testnet';
  if (passphrase === 'Public Global Stellar Network ; September 2015') return 'Mainnet';
  if (passphrase === 'Test SDF Future Network ; October 2022') return 'Futurenet';
  return `the network "${passphrase}"`;
}

/** An address as the app shows it: its first 4 and last 4 characters (`GABC…WXYZ`), as the server's `addressShort`. */
export const shortAddress = (address: string) => (address.length > 8 ? `${address.slice(0, 4)}…${address.slice(-4)}` : address);
