import { Schema, model } from 'mongoose';

/**
 * A member's linked Stellar wallet. The `_id` is the member's id, so a member has at most one: linking another
 * replaces it.
 */
const walletLinkSchema = new Schema(
  {
    _id: { type: String, required: true },
    address: { type: String, required: true },
    wallet: { type: String, required: true },
    /** The network the link was proven on: its name (testnet, public, custom) and its passphrase. */
    network: { type: String, required: true },
    networkPassphrase: { type: String, required: true },
    /** When this address was first linked to the member (linking the same address again keeps it). */
    linkedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface WalletLinkDoc {
  _id: string;
  address: string;
  wallet: 'freighter' | 'ledger' | 'trezor' | 'external';
  network: 'testnet' | 'public' | 'custom';
  networkPassphrase: string;
  linkedAt: Date;
}

export const WalletLinkModel = model<WalletLinkDoc>('StellarWalletLink', walletLinkSchema, 'stellar_wallets');

/**
 * An address held by one member. The `_id` is the address, so of two members linking it, even at the same moment
 * or through two processes, only one inserts it; the other finds it held. Unlinking deletes it.
 */
const walletAddressSchema = new Schema(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    claimedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
walletAddressSchema.index({ memberId: 1 });

export interface WalletAddressDoc {
  _id: string;
  memberId: string;
  claimedAt: Date;
}

export const WalletAddressModel = model<WalletAddressDoc>('StellarWalletAddress', walletAddressSchema, 'stellar_wallet_addresses');

/**
 * A challenge issued to a member for an address. The `_id` is the hash of the challenge transaction, which its
 * signatures do not change: the signed challenge sent back finds the record it was issued under, and with it the
 * member it was issued to.
 */
const walletChallengeSchema = new Schema(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    address: { type: String, required: true },
    wallet: { type: String, required: true },
    issuedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
walletChallengeSchema.index({ memberId: 1 });
walletChallengeSchema.index({ expiresAt: 1 });

export interface WalletChallengeDoc {
  _id: string;
  memberId: string;
  address: string;
  wallet: WalletLinkDoc['wallet'];
  issuedAt: Date;
  expiresAt: Date;
}

export const WalletChallengeModel = model<WalletChallengeDoc>('StellarWalletChallenge', walletChallengeSchema, 'stellar_wallet_challenges');

/**
 * A challenge spent by a link, under the challenge's hash: of two links sending the same challenge, even at once,
 * one inserts it and the other is refused. Kept until the challenge has expired, when nothing can use it anyway.
 */
const walletChallengeUseSchema = new Schema(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    usedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
walletChallengeUseSchema.index({ memberId: 1 });
walletChallengeUseSchema.index({ expiresAt: 1 });

export interface WalletChallengeUseDoc {
  _id: string;
  memberId: string;
  usedAt: Date;
  expiresAt: Date;
}

export const WalletChallengeUseModel = model<WalletChallengeUseDoc>('StellarWalletChallengeUse', walletChallengeUseSchema, 'stellar_wallet_challenge_uses');
