/**
 * Linking a Stellar wallet to a member's account, proven by a SEP-10 challenge (Stellar Web Authentication):
 * 1. the member asks for a challenge for an address: a transaction that can never be submitted (sequence 0 of the
 *    server's own account), whose first operation is sourced by the address, signed by the server, valid for 300
 *    seconds, recorded under its hash for this member, this address and this wallet;
 * 2. the wallet signs it with the address's key, and the member sends it back;
 * 3. the server checks it with the SDK (its own signature, the home and web auth domains, the nonce, the network,
 *    that the address's key signed it and no other key did), then its end time itself (the SDK allows five minutes
 *    more), that it was issued to this member, and spends it by inserting its hash: a second use is refused;
 * 4. the address is claimed by inserting it as a key, so it is one member's at a time, and it becomes the member's
 *    one linked wallet.
 * The check needs no call to Horizon: the address's own (master) key must sign. An account whose master key was
 * given up for other signers cannot be linked this way.
 *
 * The server's signing key is derived from JWT_SECRET (config.auth.keys.stellarWebAuth): every process has the
 * same, and it is stored nowhere.
 */
import type { Keypair, Transaction } from '@stellar/stellar-sdk';
import mongoose from 'mongoose';
import type { StellarConfig } from '../../config';
import type { AuthContext } from '../../lib/auth-context';
import { isDuplicateKey, retryLostUpsert } from '../../lib/duplicate-key';
import { AppError, badRequest } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Schemas } from '../../lib/openapi-types';
import { insertWhole } from '../../lib/query';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { isStellarAccountId, NOT_A_STELLAR_ADDRESS } from '../../lib/stellar-address';
import { shortAddress } from './stellar.address';
import { stellarSdk, type StellarSdk } from './stellar.sdk';
import {
  WalletAddressModel,
  WalletChallengeModel,
  WalletChallengeUseModel,
  WalletLinkModel,
  type WalletAddressDoc,
  type WalletChallengeDoc,
  type WalletLinkDoc,
} from './wallets.model';

export const WALLET_MESSAGES = {
  notAChallenge: 'This is not a wallet challenge from Knack. Please try again.',
  badSignature: "This wallet's signature does not match the address.",
  otherNetwork: 'This wallet signed for another Stellar network. Switch it to {network} and try again.',
  expired: 'This challenge has expired. Please try again.',
  notYours: 'This challenge was not issued to you. Please try again.',
  used: 'This challenge was already used. Please try again.',
  taken: 'This wallet is already linked to another Knack account.',
  tooMany: 'Too many wallet link attempts. Please try again in a minute.',
} as const;

/** Challenges asked per member: a person connecting a wallet, and trying again, not a script. */
export const WALLET_CHALLENGE_LIMIT: Limit = { max: 20, windowMs: 60_000 };
/** Signed challenges sent per member. */
export const WALLET_LINK_LIMIT: Limit = { max: 20, windowMs: 60_000 };
/** How long a challenge may be signed and sent back. */
export const CHALLENGE_SECONDS = 300;
/**
 * How long an address held by a member whose link names another address is still taken as theirs: the claim is
 * inserted a moment before the link is written, so a younger one may be a link on its way. An older one was left
 * by a link that replaced another at the same moment, and gives way to the next member who proves the address.
 */
const CLAIM_SETTLES_MS = 60_000;

/** How each network is named to a member whose wallet signed for another. */
const NETWORK_NAMES: Record<StellarConfig['network']['name'], string> = { testnet: 'Testnet', public: 'Mainnet', custom: 'this network' };

export interface WalletsDeps {
  network: StellarConfig['network'];
  /** PUBLIC_URL: its host is the challenges' home domain and web auth domain. */
  publicUrl: string;
  /** The 32-byte seed of the server's challenge signing key (base64url), derived from JWT_SECRET. */
  signingSeed: string;
  logger: Logger;
}

type WalletLinkView = Schemas['WalletLink'];

/** A link as the member sees it. */
export function walletLinkView(link: Pick<WalletLinkDoc, 'address' | 'wallet' | 'network' | 'linkedAt'> | null): WalletLinkView {
  if (!link) return { linked: false };
  return {
    linked: true,
    wallet: link.wallet,
    network: link.network,
    address: link.address,
    addressShort: shortAddress(link.address),
    linkedAt: link.linkedAt.toISOString(),
  };
}

/** A challenge's key: the hash of the transaction its signatures sign, the same before and after the wallet signs. */
const challengeKey = (tx: Transaction) => Buffer.from(tx.hash()).toString('hex');

const refused = {
  notAChallenge: () => badRequest(WALLET_MESSAGES.notAChallenge, [{ path: 'transaction', message: WALLET_MESSAGES.notAChallenge }]),
  badSignature: () => badRequest(WALLET_MESSAGES.badSignature, [{ path: 'transaction', message: WALLET_MESSAGES.badSignature }]),
  expired: () => badRequest(WALLET_MESSAGES.expired, [{ path: 'transaction', message: WALLET_MESSAGES.expired }]),
  // A challenge issued to another member answers as one never issued: nobody learns what another member asked for.
  notYours: () => new AppError(404, 'not_found', WALLET_MESSAGES.notYours),
  used: () => new AppError(409, 'conflict', WALLET_MESSAGES.used),
  taken: () => new AppError(409, 'conflict', WALLET_MESSAGES.taken),
};

export function createWalletsService({ network, publicUrl, signingSeed, logger }: WalletsDeps) {
  const log = logger.child({ module: 'stellar' });
  // The host, with its port when it has one, as SEP-10 names the web auth domain. A manage-data name is at most 64
  // bytes, and the home domain's is "<domain> auth".
  const domain = new URL(publicUrl).host;
  if (Buffer.byteLength(`${domain} auth`) > 64) {
    throw new Error(`PUBLIC_URL's host "${domain}" is longer than the 59 characters a Stellar wallet challenge can name.`);
  }
  let serverKey: Promise<Keypair> | undefined;
  const signingKey = () => (serverKey ??= stellarSdk().then(({ Keypair }) => Keypair.fromRawEd25519Seed(Buffer.from(signingSeed, 'base64url'))));

  /** The challenge read and checked as the SDK checks a SEP-10 challenge, with the end time checked here exactly. */
  function readChallenge(sdk: StellarSdk, transaction: string, serverAccount: string, now: Date): { tx: Transaction; address: string } {
    let read: ReturnType<StellarSdk['WebAuth']['readChallengeTx']>;
    try {
      read = sdk.WebAuth.readChallengeTx(transaction, serverAccount, network.passphrase, domain, domain);
    } catch (err) {
      if (err instanceof sdk.WebAuth.InvalidChallengeError && /has expired/.test(err.message)) throw refused.expired();
      throw refused.notAChallenge();
    }
    const { tx, clientAccountID } = read;
    if (!tx.timeBounds || now.getTime() > Number(tx.timeBounds.maxTime) * 1000) throw refused.expired();
    return { tx, address: clientAccountID };
  }

  /** Whether the address's key signed these bytes for another well-known network than ours (a wallet set to it). */
  function signedForAnotherNetwork(sdk: StellarSdk, transaction: string, address: string): boolean {
    const wellKnown: string[] = [sdk.Networks.TESTNET, sdk.Networks.PUBLIC, sdk.Networks.FUTURENET];
    return wellKnown
      .filter((passphrase) => passphrase !== network.passphrase)
      .some((passphrase) => sdk.WebAuth.gatherTxSigners(new sdk.Transaction(transaction, passphrase), [address]).length > 0);
  }

  /** A claim left by a link that another link of the same member replaced at the same moment. */
  async function isLeftOver(claim: WalletAddressDoc, now: Date): Promise<boolean> {
    if (now.getTime() - claim.claimedAt.getTime() < CLAIM_SETTLES_MS) return false;
    const holderLink = await WalletLinkModel.findById(claim.memberId, { address: 1 }).lean<Pick<WalletLinkDoc, 'address'>>();
    return holderLink?.address !== claim._id;
  }

  /** Makes the address the member's, by inserting it as a key; refused while another member holds it. */
  async function claimAddress(memberId: string, address: string, now: Date): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await insertWhole<WalletAddressDoc>(WalletAddressModel, { _id: address, memberId, claimedAt: now });
        return;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const claim = await WalletAddressModel.findById(address).lean<WalletAddressDoc>();
      if (!claim) continue; // freed meanwhile
      if (claim.memberId === memberId) return;
      if (!(await isLeftOver(claim, now))) throw refused.taken();
      await release(claim.memberId, address);
    }
    throw refused.taken();
  }

  /** Writes the member's one link: the first one inserted, a later one replacing it. */
  async function writeLink(link: WalletLinkDoc): Promise<void> {
    const { _id, ...fields } = link;
    // Two first links of one member at once: both try to insert; the later one replaces the other's.
    await retryLostUpsert(() => WalletLinkModel.replaceOne({ _id }, fields, { upsert: true }));
  }

  /**
   * Frees an address the member holds (never one another member has claimed since). Read and deleted by `_id` alone:
   * a filter on any other field reads the whole collection on FerretDB.
   */
  async function release(memberId: string, address: string): Promise<void> {
    const claim = await WalletAddressModel.findById(address, { memberId: 1 }).lean<Pick<WalletAddressDoc, 'memberId'>>();
    if (claim?.memberId === memberId) await WalletAddressModel.deleteOne({ _id: address });
  }

  return {
    /** The server's challenge signing account (G…), as a stellar.toml publishes it (SIGNING_KEY). */
    async signingAccount(): Promise<string> {
      return (await signingKey()).publicKey();
    },

    async challenge(caller: AuthContext, request: { address: string; wallet: WalletLinkDoc['wallet'] }, now = new Date()): Promise<Schemas['WalletChallenge']> {
      await consumeLimit(`stellar-challenge:${caller.userId}`, WALLET_CHALLENGE_LIMIT, WALLET_MESSAGES.tooMany, now);
      if (!isStellarAccountId(request.address)) throw badRequest(NOT_A_STELLAR_ADDRESS, [{ path: 'address', message: NOT_A_STELLAR_ADDRESS }]);
      const sdk = await stellarSdk();
      const transaction = sdk.WebAuth.buildChallengeTx(await signingKey(), request.address, domain, CHALLENGE_SECONDS, network.passphrase, domain);
      const tx = new sdk.Transaction(transaction, network.passphrase);
      const expiresAt = new Date(Number(tx.timeBounds!.maxTime) * 1000);
      await insertWhole<WalletChallengeDoc>(WalletChallengeModel, {
        _id: challengeKey(tx),
        memberId: caller.userId,
        address: request.address,
        wallet: request.wallet,
        issuedAt: now,
        expiresAt,
      });
      return { transaction, networkPassphrase: network.passphrase, expiresAt: expiresAt.toISOString() };
    },

    async link(caller: AuthContext, request: { transaction: string }, now = new Date()): Promise<WalletLinkView> {
      await consumeLimit(`stellar-link:${caller.userId}`, WALLET_LINK_LIMIT, WALLET_MESSAGES.tooMany, now);
      const sdk = await stellarSdk();
      const serverAccount = (await signingKey()).publicKey();
      const { tx, address } = readChallenge(sdk, request.transaction, serverAccount, now);
      try {
        sdk.WebAuth.verifyChallengeTxSigners(request.transaction, serverAccount, network.passphrase, [address], domain, domain);
      } catch {
        if (signedForAnotherNetwork(sdk, request.transaction, address)) {
          const message = WALLET_MESSAGES.otherNetwork.replace('{network}', NETWORK_NAMES[network.name]);
          throw badRequest(message, [{ path: 'transaction', message }]);
        }
        throw refused.badSignature();
      }

      const hash = challengeKey(tx);
      const issued = await WalletChallengeModel.findById(hash).lean<WalletChallengeDoc>();
      if (!issued || issued.memberId !== caller.userId || issued.address !== address) throw refused.notYours();
      try {
        await insertWhole(WalletChallengeUseModel, { _id: hash, memberId: caller.userId, usedAt: now, expiresAt: issued.expiresAt });
      } catch (err) {
        if (isDuplicateKey(err)) throw refused.used();
        throw err;
      }

      await claimAddress(caller.userId, address, now);
      const previous = await WalletLinkModel.findById(caller.userId).lean<WalletLinkDoc>();
      const link: WalletLinkDoc = {
        _id: caller.userId,
        address,
        wallet: issued.wallet,
        network: network.name,
        networkPassphrase: network.passphrase,
        linkedAt: previous?.address === address ? previous.linkedAt : now,
      };
      await writeLink(link);
      if (previous && previous.address !== address) await release(caller.userId, previous.address);
      log.info({ memberId: caller.userId, address: shortAddress(address), wallet: link.wallet }, 'stellar wallet linked');
      return walletLinkView(link);
    },

    async linkOf(caller: AuthContext): Promise<WalletLinkView> {
      return walletLinkView(await WalletLinkModel.findById(caller.userId).lean<WalletLinkDoc>());
    },

    /** The address is freed first, while the link still names it, so no other member's claim can be taken for a left-over. */
    async unlink(caller: AuthContext): Promise<WalletLinkView> {
      const link = await WalletLinkModel.findById(caller.userId).lean<WalletLinkDoc>();
      if (link) {
        await release(caller.userId, link.address);
        await WalletLinkModel.deleteOne({ _id: caller.userId });
        log.info({ memberId: caller.userId, address: shortAddress(link.address) }, 'stellar wallet unlinked');
      }
      return { linked: false };
    },
  };
}

export type WalletsService = ReturnType<typeof createWalletsService>;

/** Removes the challenges and their uses that have expired: nothing can link with them any more (the housekeeping job). */
export async function purgeExpiredWalletChallenges(now = new Date()): Promise<number> {
  const expired = { expiresAt: mongoose.trusted({ $lte: now }) };
  const [issued, used] = await Promise.all([WalletChallengeModel.deleteMany(expired), WalletChallengeUseModel.deleteMany(expired)]);
  return issued.deletedCount + used.deletedCount;
}
