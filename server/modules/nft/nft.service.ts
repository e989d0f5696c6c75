/**
 * Minting a piece as a Stellar NFT, in the steps of NFT mode:
 * - start (the token code): the code's rules, the member's linked wallet and its standing (at least 3 XLM); the
 *   issuer is derived for the mint (nft.issuer.ts), never generated, stored or answered;
 * - prepare (moving to sign and save): the member's own unused uploads pinned to IPFS (the song, else the image;
 *   and a song's cover), and the one transaction that mints the token, sourced by the member's wallet, signed by the
 *   issuer: create the issuer with 2 XLM, the member's trustline, the payment of the supply, the file's CID on the
 *   issuer (`ipfshash`), and the issuer's master weight set to 0, so no more can ever be issued;
 * - submit (save): the piece checked with content/save's rules first, then the member's signed transaction (it must
 *   be the prepared one) submitted through the Horizon driver, then the piece published under the mint's id with its
 *   token. The mint is marked submitted before it is sent, and a retried or concurrent submit looks the transaction
 *   up on the network instead of refusing it, so the piece is published once (its insert under the mint's id is the
 *   one exclusive step) and the network's refusal is answered in plain words.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Types } from 'mongoose';
import type { Keypair, Transaction } from '@stellar/stellar-sdk';
import { MESSAGES } from '../../../generated/validation';
import { HorizonRefusedError, loadStellarSdk, type HorizonDriver } from '../../integrations/horizon';
import type { IpfsPinning } from '../../integrations/ipfs';
import type { AuthContext } from '../../lib/auth-context';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { formatStroops } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import { requireOwnerOrAdmin } from '../../lib/permissions';
import { insertWhole } from '../../lib/query';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { contentReads, type ContentDoc, type ContentNft, type ContentsService, type PieceToPublish } from '../contents';
import type { MediaService, UploadDoc } from '../media';
import { answerHorizonFailure, refusalInWords, shortAddress, STELLAR_MESSAGES, type StellarService, type WalletsService } from '../stellar';
import { issuerKeypairOf } from './nft.issuer';
import { noteMintOf } from './nft.lists';
import { NftMintModel, type NftMintDoc } from './nft.model';

export const NFT_MESSAGES = {
  tokenCodeEmpty: 'Token Code should not be empty',
  tokenCodeInvalid: 'Token Code must be 1 to 12 letters A–Z and digits 0–9.',
  noWallet: 'Link a Stellar wallet first.',
  notFound: 'This token was not found.',
  alreadyMinted: 'This token is already minted.',
  beingMinted: 'This token is being minted. Please wait a few minutes and look again.',
  notPrepared: 'This token has no transaction to sign yet. Go back a step.',
  notThePrepared: 'This is not the transaction prepared for this token. Please sign it again.',
  otherFiles: 'These are not the files pinned for this token. Go back a step to pin them again.',
  expired: 'This transaction has expired. Go back a step and sign it again.',
  refused: 'The Stellar network refused the transaction: ',
  imageNotHttps: 'The token image must be an https URL.',
  pinFailed: 'The file could not be pinned to IPFS right now. Please try again in a minute.',
  tooMany: 'Too many tokens started. Please wait a minute and try again.',
  tooManyPrepares: 'Too many tries at preparing this token. Please wait a minute and try again.',
} as const;

/** Mints started per member: each asks Horizon and makes an issuer; a person minting, not a script. */
export const NFT_START_LIMIT: Limit = { max: 10, windowMs: 60_000 };
/** Prepares per member: each pins files to IPFS and asks Horizon; a person going back and forth, not a script. */
export const NFT_PREPARE_LIMIT: Limit = { max: 20, windowMs: 60_000 };
/** How long the prepared transaction may be signed and submitted. */
export const MINT_SECONDS = 300;
/** What the member's wallet gives the new issuer account: its reserve and the data entry's. */
export const ISSUER_STARTING_XLM = '2';
/** The issuer's data entry holding the pinned file's CID. */
export const IPFS_DATA_NAME = 'ipfshash';
const TOKEN_CODE = /^[A-Z0-9]{1,12}$/;

/** The network's refusal in the member's words, by Horizon's result code (the transaction's, else an operation's). */
const REFUSAL_WORDS: Record<string, string> = {
  tx_bad_auth: 'the wallet did not sign it',
  op_bad_auth: 'the wallet did not sign it',
  tx_bad_auth_extra: 'it carries signatures of keys it does not need',
  tx_insufficient_balance: STELLAR_MESSAGES.insufficientBalance,
  op_underfunded: STELLAR_MESSAGES.insufficientBalance,
  op_low_reserve: STELLAR_MESSAGES.insufficientBalance,
  tx_bad_seq: 'your wallet account sent another transaction since this one was made. Go back a step and sign it again',
  tx_insufficient_fee: 'its fee is below what the network asks right now. Go back a step and sign it again',
  tx_no_source_account: 'your wallet account does not exist',
  op_no_source_account: 'your wallet account does not exist',
  tx_too_early: 'it is not valid yet',
  op_already_exists: 'the token issuer exists already',
  tx_malformed: 'it could not be read',
};

/** The IPFS CID as the app shows it: its first 6 and last 8 characters. */
export const shortIpfsHash = (cid: string) => `${cid.slice(0, 6)}…${cid.slice(-8)}`;

/** A mint as its member sees it. */
export function nftMintView(mint: NftMintDoc): Schemas['NftMint'] {
  return {
    id: mint._id,
    status: mint.status,
    tokenCode: mint.tokenCode,
    tokenAmount: mint.tokenAmount,
    tokenIssuer: mint.tokenIssuer,
    tokenIssuerShort: shortAddress(mint.tokenIssuer),
    asset: `${mint.tokenCode}:${mint.tokenIssuer}`,
    ownerAddress: mint.ownerAddress,
    network: mint.network,
    networkPassphrase: mint.networkPassphrase,
    ...(mint.ipfsHash && { ipfsHash: mint.ipfsHash, ipfsHashShort: shortIpfsHash(mint.ipfsHash) }),
    ...(mint.ipfsUrl && { ipfsUrl: mint.ipfsUrl }),
    ...(mint.transaction && mint.status !== 'published' && { transaction: mint.transaction }),
    ...(mint.expiresAt && { expiresAt: mint.expiresAt.toISOString() }),
    ...(mint.transactionHash && { transactionHash: mint.transactionHash }),
    ...(mint.contentId && { contentId: mint.contentId }),
  };
}

/** The token as the published piece carries it. */
function contentNftOf(mint: NftMintDoc): ContentNft {
  return {
    tokenCode: mint.tokenCode,
    tokenIssuer: mint.tokenIssuer,
    tokenIssuerShort: shortAddress(mint.tokenIssuer),
    asset: `${mint.tokenCode}:${mint.tokenIssuer}`,
    tokenAmount: mint.tokenAmount,
    transactionHash: mint.transactionHash!,
    ipfsHash: mint.ipfsHash!,
    ipfsHashShort: shortIpfsHash(mint.ipfsHash!),
    ipfsUrl: mint.ipfsUrl!,
    network: mint.network,
  };
}

function refusal(err: HorizonRefusedError): AppError {
  if (err.resultCodes.transaction === 'tx_too_late') return badRequest(NFT_MESSAGES.expired, [{ path: 'transaction', message: NFT_MESSAGES.expired }]);
  return refusalInWords(err, NFT_MESSAGES.refused, REFUSAL_WORDS);
}

export interface NftDeps {
  horizon: HorizonDriver;
  stellar: Pick<StellarService, 'accountStanding'>;
  wallets: Pick<WalletsService, 'linkOf'>;
  contents: Pick<ContentsService, 'check' | 'publish' | 'dto'>;
  media: Pick<MediaService, 'ownUnusedUpload' | 'read'>;
  ipfs: IpfsPinning;
  /** config.auth.keys.nftIssuers: the key every issuer is derived with. */
  issuersKey: string;
  logger: Logger;
}

export function createNftService({ horizon, stellar, wallets, contents, media, ipfs, issuersKey, logger }: NftDeps) {
  const log = logger.child({ module: 'nft' });
  const failure = (err: unknown) => Promise.reject(answerHorizonFailure(err, logger));

  /** The caller's own mint; anyone else's (and an id nobody has) is 404. */
  async function ownMint(caller: AuthContext, id: string): Promise<NftMintDoc> {
    const mint = await NftMintModel.findById(id).lean<NftMintDoc>();
    if (!mint) throw notFound(NFT_MESSAGES.notFound);
    requireOwnerOrAdmin(caller, mint.memberId, NFT_MESSAGES.notFound);
    // Preparing and submitting act as the member: an admin may read a mint, never sign or publish it.
    if (mint.memberId !== caller.userId) throw notFound(NFT_MESSAGES.notFound);
    return mint;
  }

  async function change(id: string, fields: Partial<NftMintDoc>): Promise<void> {
    await NftMintModel.updateOne({ _id: id }, { $set: fields });
  }

  /** Whether the network has the transaction in a ledger, applied. */
  async function applied(hash: string): Promise<boolean> {
    const found = await horizon.findTransaction(hash).catch(failure);
    return Boolean(found?.successful);
  }

  /** Pins an upload's stored file, copied to a temporary file first (the driver reads a file; storage may be S3). */
  async function pin(upload: UploadDoc): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'knack-nft-pin-'));
    try {
      const file = path.join(dir, 'file');
      await pipeline(await media.read(upload), createWriteStream(file));
      const pinned = await ipfs.pin({ path: file, name: upload.originalName ?? upload.key, contentType: upload.mimeType });
      return pinned.cid;
    } catch (err) {
      log.error({ err, uploadId: String(upload._id) }, 'pinning to IPFS failed');
      throw new AppError(503, 'unavailable', NFT_MESSAGES.pinFailed);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  function tomlFields(toml: Schemas['NftToml'] | undefined): NftMintDoc['toml'] {
    const name = toml?.name?.trim();
    const description = toml?.description?.trim();
    const image = toml?.image?.trim();
    if (image && !/^https:\/\/[^\s]+$/i.test(image))
      throw badRequest(NFT_MESSAGES.imageNotHttps, [{ path: 'toml.image', message: NFT_MESSAGES.imageNotHttps }]);
    if (!name && !description && !image) return null;
    return { ...(name && { name }), ...(description && { description }), ...(image && { image }) };
  }

  /** The signed transaction sent back, if it is the prepared one; with the issuer's signature added if the wallet dropped it. */
  async function preparedTransaction(mint: NftMintDoc, xdr: string): Promise<Transaction> {
    const sdk = await loadStellarSdk();
    let tx: Transaction;
    try {
      tx = new sdk.Transaction(xdr, mint.networkPassphrase);
    } catch {
      throw badRequest(NFT_MESSAGES.notThePrepared, [{ path: 'transaction', message: NFT_MESSAGES.notThePrepared }]);
    }
    if (tx.hash().toString('hex') !== mint.transactionHash) {
      throw badRequest(NFT_MESSAGES.notThePrepared, [{ path: 'transaction', message: NFT_MESSAGES.notThePrepared }]);
    }
    const issuer = await issuerKeypairOf(issuersKey, mint._id);
    if (!signedBy(tx, issuer)) tx.sign(issuer);
    return tx;
  }

  const signedBy = (tx: Transaction, key: Keypair) =>
    tx.signatures.some((signature) => signature.hint().equals(key.signatureHint()) && key.verify(tx.hash(), signature.signature()));

  /** Sends the transaction; a refusal for a transaction the network has anyway (sent before, its answer lost) is no refusal. */
  async function send(mint: NftMintDoc, tx: Transaction): Promise<void> {
    try {
      await horizon.submit(tx);
    } catch (err) {
      if (!(err instanceof HorizonRefusedError)) throw answerHorizonFailure(err, logger);
      if (await applied(mint.transactionHash!)) return;
      await change(mint._id, { status: 'prepared', submittedAt: null });
      log.info({ mintId: mint._id, resultCodes: err.resultCodes }, 'the network refused a mint');
      throw refusal(err);
    }
  }

  /** The piece published for the mint, as the caller sees it. */
  async function publishedAnswer(piece: ContentDoc, caller: AuthContext): Promise<Schemas['ContentSaveResponse']> {
    return { content: await contents.dto(piece, caller), message: MESSAGES.contentSaved };
  }

  return {
    async start(caller: AuthContext, request: Schemas['NftMintStartRequest'], now = new Date()): Promise<Schemas['NftMint']> {
      await consumeLimit(`nft-start:${caller.userId}`, NFT_START_LIMIT, NFT_MESSAGES.tooMany, now);
      const tokenCode = request.tokenCode?.trim() ?? '';
      if (!tokenCode) throw badRequest(NFT_MESSAGES.tokenCodeEmpty, [{ path: 'tokenCode', message: NFT_MESSAGES.tokenCodeEmpty }]);
      if (!TOKEN_CODE.test(tokenCode)) throw badRequest(NFT_MESSAGES.tokenCodeInvalid, [{ path: 'tokenCode', message: NFT_MESSAGES.tokenCodeInvalid }]);
      const wallet = await wallets.linkOf(caller);
      if (!wallet.linked || !wallet.address) throw badRequest(NFT_MESSAGES.noWallet);
      const standing = await stellar.accountStanding(wallet.address);
      if (!standing.passed) throw badRequest(standing.errorMessage);

      const id = new Types.ObjectId().toHexString();
      const issuer = await issuerKeypairOf(issuersKey, id);
      const mint: NftMintDoc = {
        _id: id,
        memberId: caller.userId,
        status: 'started',
        tokenCode,
        tokenAmount: request.tokenAmount ?? 1,
        tokenIssuer: issuer.publicKey(),
        ownerAddress: wallet.address,
        network: horizon.network.name,
        networkPassphrase: horizon.network.passphrase,
        photoPath: null,
        audioPath: null,
        ipfsHash: null,
        ipfsUrl: null,
        imageIpfsUrl: null,
        toml: null,
        transaction: null,
        transactionHash: null,
        expiresAt: null,
        contentId: null,
        startedAt: now,
        submittedAt: null,
        publishedAt: null,
      };
      await noteMintOf(caller.userId, id, now);
      await insertWhole(NftMintModel, mint);
      log.info({ mintId: id, memberId: caller.userId, tokenCode, issuer: shortAddress(mint.tokenIssuer) }, 'nft mint started');
      return nftMintView(mint);
    },

    async get(caller: AuthContext, id: string): Promise<Schemas['NftMint']> {
      const mint = await NftMintModel.findById(id).lean<NftMintDoc>();
      if (!mint) throw notFound(NFT_MESSAGES.notFound);
      requireOwnerOrAdmin(caller, mint.memberId, NFT_MESSAGES.notFound);
      return nftMintView(mint);
    },

    async prepare(caller: AuthContext, id: string, request: Schemas['NftMintPrepareRequest'], now = new Date()): Promise<Schemas['NftMint']> {
      await consumeLimit(`nft-prepare:${caller.userId}`, NFT_PREPARE_LIMIT, NFT_MESSAGES.tooManyPrepares, now);
      const mint = await ownMint(caller, id);
      if (mint.status === 'published') throw new AppError(409, 'conflict', NFT_MESSAGES.alreadyMinted);
      if (mint.status === 'submitted') {
        if (await applied(mint.transactionHash!)) throw new AppError(409, 'conflict', NFT_MESSAGES.alreadyMinted);
        // Sent and not in a ledger yet: until it has expired it may still be.
        if (mint.expiresAt && now.getTime() <= mint.expiresAt.getTime()) throw new AppError(409, 'conflict', NFT_MESSAGES.beingMinted);
      }
      const toml = tomlFields(request.toml);
      const photo = await media.ownUnusedUpload(request.photoPath, caller.userId, 'image', 'content', MESSAGES.photoRequired);
      const audio = request.audioPath ? await media.ownUnusedUpload(request.audioPath, caller.userId, 'audio', 'content', MESSAGES.audioRequired) : null;

      const sdk = await loadStellarSdk();
      const [account, baseFee] = await Promise.all([horizon.loadAccount(mint.ownerAddress), horizon.baseFee()]).catch(failure);
      if (!account) throw badRequest(STELLAR_MESSAGES.noAccount);
      const ipfsHash = await pin(audio ?? photo);
      const imageHash = audio ? await pin(photo) : ipfsHash;

      const issuer = await issuerKeypairOf(issuersKey, mint._id);
      const asset = new sdk.Asset(mint.tokenCode, mint.tokenIssuer);
      // The SDK's fee is per operation: the transaction's fee is the base fee times its five operations.
      const tx = new sdk.TransactionBuilder(account, { fee: String(baseFee), networkPassphrase: mint.networkPassphrase })
        .addOperation(sdk.Operation.createAccount({ destination: mint.tokenIssuer, startingBalance: ISSUER_STARTING_XLM }))
        .addOperation(sdk.Operation.changeTrust({ asset }))
        .addOperation(
          sdk.Operation.payment({ source: mint.tokenIssuer, destination: mint.ownerAddress, asset, amount: formatStroops(BigInt(mint.tokenAmount)) }),
        )
        .addOperation(sdk.Operation.manageData({ source: mint.tokenIssuer, name: IPFS_DATA_NAME, value: ipfsHash }))
        .addOperation(sdk.Operation.setOptions({ source: mint.tokenIssuer, masterWeight: 0 }))
        .setTimeout(MINT_SECONDS)
        .build();
      tx.sign(issuer);

      const prepared: NftMintDoc = {
        ...mint,
        status: 'prepared',
        photoPath: photo.key,
        audioPath: audio?.key ?? null,
        ipfsHash,
        ipfsUrl: ipfs.urlOf(ipfsHash),
        imageIpfsUrl: ipfs.urlOf(imageHash),
        toml,
        transaction: tx.toXDR(),
        transactionHash: tx.hash().toString('hex'),
        expiresAt: new Date(Number(tx.timeBounds!.maxTime) * 1000),
        submittedAt: null,
      };
      const { _id, ...fields } = prepared;
      await change(_id, fields);
      log.info({ mintId: id, ipfsHash, transactionHash: prepared.transactionHash }, 'nft mint prepared');
      return nftMintView(prepared);
    },

    async submit(caller: AuthContext, id: string, request: Schemas['NftMintSubmitRequest'], now = new Date()): Promise<Schemas['ContentSaveResponse']> {
      const mint = await ownMint(caller, id);
      const pieceId = new Types.ObjectId(mint._id);
      // The piece is published under the mint's id: found there, it is the answer (a retry after a lost answer).
      const publishedPiece = () => contentReads.byId<ContentDoc>(pieceId);
      if (mint.status === 'published') {
        const piece = await publishedPiece();
        // Published, then removed by its member: the token stays minted on the network.
        if (!piece) throw new AppError(409, 'conflict', NFT_MESSAGES.alreadyMinted);
        return publishedAnswer(piece, caller);
      }
      if (!mint.transactionHash || mint.status === 'started') throw badRequest(NFT_MESSAGES.notPrepared);

      let piece: PieceToPublish;
      try {
        piece = await contents.check(caller, request, 'classic');
      } catch (err) {
        // The same submit, sent twice at once, may find the uploads already its twin's.
        const already = await publishedPiece();
        if (already) return publishedAnswer(already, caller);
        throw err;
      }
      if (piece.photo.key !== mint.photoPath || (piece.audio?.key ?? null) !== mint.audioPath) {
        throw badRequest(NFT_MESSAGES.otherFiles, [{ path: piece.audio ? 'audioPath' : 'photoPath', message: NFT_MESSAGES.otherFiles }]);
      }
      const tx = await preparedTransaction(mint, request.transaction);

      const inLedger = mint.status === 'submitted' && (await applied(mint.transactionHash));
      if (!inLedger) {
        if (mint.expiresAt && now.getTime() > mint.expiresAt.getTime()) {
          if (mint.status === 'submitted') await change(id, { status: 'prepared', submittedAt: null });
          throw badRequest(NFT_MESSAGES.expired, [{ path: 'transaction', message: NFT_MESSAGES.expired }]);
        }
        // Marked before it is sent: whatever becomes of the answer, a retry looks the transaction up first.
        await change(id, { status: 'submitted', submittedAt: now });
        await send(mint, tx);
      }
      const published = await contents.publish(piece, { id: pieceId, nft: contentNftOf(mint) });
      await change(id, { status: 'published', contentId: String(published._id), publishedAt: new Date() });
      log.info({ mintId: id, contentId: String(published._id), transactionHash: mint.transactionHash }, 'nft minted and published');
      return publishedAnswer(published, caller);
    },
  };
}

export type NftService = ReturnType<typeof createNftService>;
