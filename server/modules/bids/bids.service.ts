/**
 * Bids on pieces in XLM, and their sale on the Stellar network, without Knack ever holding funds or keys:
 * - a bid is the next number of the piece's chain of bids (bids.model.ts), inserted only after it is checked against
 *   the latest bid not withdrawn; of bids sent at once, one takes each number and the others read again and check
 *   again, so the chain's prices rise and its latest bid not withdrawn is the one current best;
 * - the owner sells the current best bid: inserting the piece's pending sale (`_id` = the piece) is the exclusive
 *   step, and it blocks bidding; both sides then check again (a bid inserted meanwhile ends the sale, a sale
 *   inserted meanwhile withdraws the bid). The sale's one transaction is sourced by the buyer: the price from buyer
 *   to seller and, for an NFT, the buyer's trustline and the token from seller to buyer; its memo names the bid;
 * - each party's wallet signs; Knack merges the signatures and submits, or takes the hash of a transaction a wallet
 *   submitted itself once it has read it from Horizon and checked what it does;
 * - only a transaction in a ledger settles a sale: the ledger entry `xlm:{txHash}:0` is inserted first (the
 *   exclusive step: the same transaction seen twice settles once), then the piece's owner changes, then the bid is
 *   marked sold and the pending sale removed; each step can be repeated, so a settlement cut short is finished by
 *   the next look. A sale whose time bound passed with no transaction in a ledger goes back to open.
 */
import { deleteWhileStill, updateWhileStill } from '../../lib/guarded-write';
import { Types } from 'mongoose';
import type { Transaction } from '@stellar/stellar-sdk';
import { MESSAGES } from '../../../generated/validation';
import { HorizonRefusedError, loadStellarSdk, type HorizonDriver } from '../../integrations/horizon';
import type { AuthContext } from '../../lib/auth-context';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { formatStroops, microsToUsd, stroopsOf } from '../../lib/money';
import { numberedChains } from '../../lib/numbered-chain';
import type { Schemas } from '../../lib/openapi-types';
import { insertWhole, readById } from '../../lib/query';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { canView, contentReads, transferOwner, type ContentDoc } from '../contents';
import { entryExists, knackEarningsOf, post } from '../ledger';
import type { MessagesService } from '../messages';
import { relistingKey, waivableFee, type PaymentsService } from '../payments';
import { NFT_MESSAGES } from '../nft';
import { answerHorizonFailure, MINIMUM_BALANCE_STROOPS, refusalInWords, shortAddress, STELLAR_MESSAGES, type WalletsService } from '../stellar';
import { userReads } from '../users';
import { priceToStroops, saleMemoHash, stroopsToPrice, usdMicrosToStroops } from './bids.amounts';
import { bidLinkToken, readBidLinkToken } from './bids.links';
import { BidModel, BidSaleModel, type BidDoc, type BidSaleDoc } from './bids.model';
import { noteBidOf } from './bids.lists';

export const BID_MESSAGES = {
  priceRequired: MESSAGES.bidPriceRequired,
  belowBest: MESSAGES.bidBelowBest,
  belowEarning: MESSAGES.bidBelowEarning,
  pending: MESSAGES.bidWhileSalePending,
  cannotSell: MESSAGES.cannotSell,
  own: 'You cannot bid on your own piece.',
  notFound: 'Bid not found',
  contentNotFound: 'Content not found',
  bidderNoWallet: 'The bidder has no linked Stellar wallet.',
  needAddress: 'Give the Stellar address of the wallet that signed.',
  notYourAddress: 'This is not the Stellar wallet linked to your account.',
  notASigner: 'This sale does not need a signature from this wallet.',
  notSigned: "Your wallet's signature is not on this transaction. Please sign it again.",
  unreadable: 'This is not a Stellar transaction. Please sign it again.',
  notInLedger: 'The Stellar network has no successful transaction by this hash yet.',
  expired: 'This sale has expired: bidding is open again.',
  sent: 'The transaction of this sale was sent to the network: it can no longer be cancelled.',
  refused: 'The Stellar network refused the transaction: ',
  tooMany: 'Too many bids. Please wait a minute and try again.',
  tooManyActions: 'Too many tries. Please wait a minute and try again.',
  closed: 'This piece was sold: its owner has not opened it to bids again yet.',
  openAlready: 'This piece is open for bids already.',
  saleSubject: 'Your bid was accepted',
} as const;

/** What differs between a transaction and the sale's (the first found, in this order). */
export const notTheSale = (what: 'memo' | 'source' | 'asset' | 'amount' | 'destination' | 'operations') =>
  `This is not the transaction of this sale: its ${what} ${what === 'operations' ? 'differ' : 'differs'}.`;

/** Bids per member, counted before anything is read: a person bidding, not a script. */
export const BID_LIMIT: Limit = { max: 30, windowMs: 60_000 };
/** Sells, approvals and cancels per member: each may ask Horizon. */
export const BID_ACTION_LIMIT: Limit = { max: 30, windowMs: 60_000 };
/** How long a sale's transaction may be signed and reach a ledger. */
export const SALE_SECONDS = 300;
/** How far back from the newest bid a list reads. */
const LIST_SIZE = 50;
/** Bids of one piece inserted between a bid's read and its insert, after which it gives up (answers 409). */
const MAX_TRIES = 50;

const REFUSAL_WORDS: Record<string, string> = {
  tx_bad_auth: 'not every wallet has signed it',
  op_bad_auth: 'not every wallet has signed it',
  tx_insufficient_balance: STELLAR_MESSAGES.insufficientBalance,
  op_underfunded: STELLAR_MESSAGES.insufficientBalance,
  op_low_reserve: STELLAR_MESSAGES.insufficientBalance,
  op_no_trust: 'the buyer cannot hold the token',
  tx_bad_seq: "the buyer's wallet sent another transaction since this one was made; the owner can sell again once this sale expires",
  tx_too_late: 'it has expired',
  tx_no_source_account: "the buyer's wallet account does not exist",
};

type Caller = AuthContext | undefined;
type SaleView = Schemas['BidSale'];

export interface BidsDeps {
  horizon: HorizonDriver;
  wallets: Pick<WalletsService, 'linkOf'>;
  /** Relisting a sold piece is paid like a listing fee (the payments module's). */
  payments: Pick<PaymentsService, 'relist'>;
  /** Writes to a member's inbox from Knack's support account (the messages module's). */
  notify: MessagesService['notify'];
  /** config.auth.keys.bidLinks: the key of the inbox links' tokens. */
  linksKey: string;
  /** The site's address, for the links in the inbox. */
  publicUrl: string;
  logger: Logger;
}

const chains = numberedChains<BidDoc>(BidModel, {
  separator: ':',
  projection: { contentId: 1, biderId: 1, priceStroops: 1, deleted: 1, sold: 1 },
});

/** Forgets the chain ends this process remembers (tests that empty the collection). */
export const forgetBidChains = () => chains.forget();

const readBid = (id: string) => readById<BidDoc>(BidModel, id);
const readSale = (contentId: string) => readById<BidSaleDoc>(BidSaleModel, contentId);
const numberOf = (bidId: string) => Number(bidId.slice(bidId.lastIndexOf(':') + 1));

/**
 * The chain's end and its current best bid: walking back from the end past withdrawn bids. A sold bid closes what
 * came before it: with no bid after it, `lastSold` is that sale (bidding starts again once the new owner relists).
 */
async function latest(contentId: string, exact: boolean): Promise<{ n: number; current: BidDoc | null; lastSold: BidDoc | null }> {
  const { n } = await chains.end(contentId, exact);
  for (let i = n; i >= 1; i -= 1) {
    const bid = await readBid(chains.idOf(contentId, i));
    if (!bid) continue;
    if (bid.sold) return { n, current: null, lastSold: bid };
    if (!bid.deleted) return { n, current: bid, lastSold: null };
  }
  return { n, current: null, lastSold: null };
}

/** Whether a sale closed the piece to bids: its last sale, and its owner has not relisted it (the entry `relisting:{bidId}`). */
const isClosed = async (lastSold: BidDoc | null) => Boolean(lastSold && !(await entryExists(relistingKey(lastSold._id))));

/** The relisting fee: 10% of the reserve (the piece's earnings), rounded up to the cent. */
export const relistFeeMicros = (earningsMicros: number) => Math.ceil(earningsMicros / 10 / 10_000) * 10_000;

const contentOf = (contentId: string) => contentReads.byId<ContentDoc>(new Types.ObjectId(contentId));

/**
 * What the piece's knacks have credited, in micro-dollars: the same figure its earnings show (`knack/get-money`), each
 * knack at the tag price it was credited at. An unlisted piece earns nothing, so it has no reserve.
 */
const earningsMicrosOf = (content: Pick<ContentDoc, '_id' | 'isPaidOut'>) => (content.isPaidOut ? knackEarningsOf(content._id) : Promise.resolve(0));

export function createBidsService({ horizon, wallets, payments, notify, linksKey, publicUrl, logger }: BidsDeps) {
  const log = logger.child({ module: 'bids' });
  const failure = (err: unknown) => Promise.reject(answerHorizonFailure(err, logger));
  const linkOfMember = (userId: string) => wallets.linkOf({ userId, email: '', role: 'user' });

  async function usernames(ids: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids.filter(Boolean))];
    const users = await Promise.all(unique.map((id) => userReads.byId<{ username: string }>(new Types.ObjectId(id), { username: 1 })));
    return new Map(unique.map((id, i) => [id, users[i]?.username ?? '']));
  }

  function bidView(bid: BidDoc, extra: { current: boolean; pending: boolean; names: Map<string, string> }): Schemas['Bid'] {
    return {
      _id: bid._id,
      id: bid._id,
      contentId: bid.contentId,
      biderId: bid.biderId,
      userId: bid.biderId,
      ...(extra.names.get(bid.biderId) && { biderUsername: extra.names.get(bid.biderId) }),
      price: stroopsToPrice(bid.priceStroops),
      unit: 'xlm',
      createdAt: bid.createdAt.toISOString(),
      sold: bid.sold,
      pending: extra.pending,
      deleted: bid.deleted,
      current: extra.current,
      soldAt: bid.soldAt ? bid.soldAt.toISOString() : null,
      ...(bid.sellerId && { sellerId: bid.sellerId }),
      ...(bid.sellerId && extra.names.get(bid.sellerId) && { sellerUsername: extra.names.get(bid.sellerId) }),
      ...(bid.transactionHash && { transactionHash: bid.transactionHash }),
    };
  }

  async function signaturesOf(sale: BidSaleDoc): Promise<{ tx: Transaction; signedBy: Set<string> }> {
    const sdk = await loadStellarSdk();
    const tx = new sdk.Transaction(sale.transaction, sale.networkPassphrase);
    const signedBy = new Set<string>();
    for (const address of [sale.buyerAddress, sale.sellerAddress]) {
      const key = sdk.Keypair.fromPublicKey(address);
      if (tx.signatures.some((s) => s.hint().equals(key.signatureHint()) && key.verify(tx.hash(), s.signature()))) signedBy.add(address);
    }
    return { tx, signedBy };
  }

  const neededSigners = (sale: BidSaleDoc) => (sale.asset ? [sale.buyerAddress, sale.sellerAddress] : [sale.buyerAddress]);

  async function saleView(sale: BidSaleDoc, status: SaleView['status'] = sale.status): Promise<SaleView> {
    const { signedBy } = await signaturesOf(sale);
    return {
      bidId: sale.bidId,
      contentId: sale._id,
      status,
      buyerId: sale.buyerId,
      sellerId: sale.sellerId,
      price: stroopsToPrice(sale.priceStroops),
      ...(sale.asset && { asset: sale.asset, tokenAmount: sale.tokenAmount ?? 1 }),
      transaction: sale.transaction,
      transactionHash: sale.transactionHash,
      networkPassphrase: sale.networkPassphrase,
      expiresAt: sale.expiresAt.toISOString(),
      memoHash: sale.memoHash,
      signers: [{ role: 'buyer' as const, address: sale.buyerAddress }, ...(sale.asset ? [{ role: 'seller' as const, address: sale.sellerAddress }] : [])].map(
        (signer) => ({ ...signer, addressShort: shortAddress(signer.address), signed: signedBy.has(signer.address) }),
      ),
    };
  }

  /** The answer of a bid: the bid as it is now, and its sale for the sale's parties. */
  async function answer(bidId: string, caller: Caller, saleStatus?: { sale: BidSaleDoc; status: SaleView['status'] }): Promise<Schemas['BidResponse']> {
    const bid = (await readBid(bidId))!;
    const [{ current }, sale] = await Promise.all([latest(bid.contentId, true), readSale(bid.contentId)]);
    const pending = Boolean(sale && sale.bidId === bid._id);
    const names = await usernames([bid.biderId, bid.sellerId ?? '']);
    const view = bidView(bid, { current: current?._id === bid._id, pending, names });
    const shown = saleStatus ?? (pending && sale ? { sale, status: sale.status } : undefined);
    const party = caller && shown && (caller.userId === shown.sale.buyerId || caller.userId === shown.sale.sellerId);
    return { bid: view, ...(party && { sale: await saleView(shown.sale, shown.status) }) };
  }

  /** The bid a call names by id or by an inbox link's token (which acts only for the bidder it names). */
  async function namedBid(caller: AuthContext, request: { bidId?: string; token?: string }): Promise<BidDoc> {
    let bidId = request.bidId;
    if (!bidId && request.token) {
      const named = readBidLinkToken(linksKey, request.token);
      if (!named || named.biderId !== caller.userId) throw notFound(BID_MESSAGES.notFound);
      bidId = named.bidId;
    }
    if (!bidId) throw badRequest(BID_MESSAGES.notFound, [{ path: 'bidId', message: BID_MESSAGES.notFound }]);
    const bid = await readBid(bidId);
    if (!bid) throw notFound(BID_MESSAGES.notFound);
    return bid;
  }

  /** The sale goes back to open: bidding opens again. */
  async function release(sale: BidSaleDoc, reason: string): Promise<void> {
    await deleteWhileStill(BidSaleModel, sale._id, { bidId: sale.bidId });
    log.info({ bidId: sale.bidId, contentId: sale._id, transactionHash: sale.transactionHash, reason }, 'bid sale released');
  }

  /**
   * Tells the bidder in their inbox that the owner accepted their bid, with the links that sign or decline the sale
   * (`/approve?token=…`, `/cancel?token=…`). The sale stands whether or not the message could be written: the
   * detail modal shows it too.
   */
  async function tellBuyer(sale: BidSaleDoc, content: ContentDoc): Promise<void> {
    const token = encodeURIComponent(bidLinkToken(linksKey, sale.bidId, sale.buyerId));
    const minutes = Math.round(SALE_SECONDS / 60);
    const text = [
      `The owner of "${content.title}" accepted your bid of ${stroopsToPrice(sale.priceStroops).toFixed(2)} XLM.`,
      `To buy it, sign the sale with your Stellar wallet within ${minutes} minutes: ${publicUrl}/approve?token=${token}`,
      `To decline it: ${publicUrl}/cancel?token=${token}`,
      `Knack never holds your funds: the XLM goes from your wallet to the owner's in one transaction${sale.asset ? ', with the token to yours' : ''}.`,
    ].join('\n\n');
    try {
      await notify(sale.buyerId, BID_MESSAGES.saleSubject, text);
    } catch (err) {
      log.error({ err, bidId: sale.bidId }, 'the bidder could not be told of the sale in their inbox');
    }
  }

  /** Reads what a transaction does and names the first thing that is not the sale's. */
  async function differenceFrom(sale: BidSaleDoc, tx: Transaction): Promise<Parameters<typeof notTheSale>[0] | null> {
    const sdk = await loadStellarSdk();
    const memo = tx.memo;
    if (memo.type !== 'hash' || !Buffer.isBuffer(memo.value) || memo.value.toString('hex') !== sale.memoHash) return 'memo';
    if (tx.source !== sale.buyerAddress) return 'source';
    const ops = tx.operations;
    const expected = sale.asset ? 3 : 1;
    if (ops.length !== expected) return 'operations';
    const pay = ops[0]!;
    if (pay.type !== 'payment') return 'operations';
    if (!pay.asset.isNative()) return 'asset';
    if (stroopsOf(pay.amount) !== BigInt(sale.priceStroops)) return 'amount';
    if (pay.destination !== sale.sellerAddress) return 'destination';
    if ((pay.source ?? tx.source) !== sale.buyerAddress) return 'source';
    if (sale.asset) {
      const [code, issuer] = sale.asset.split(':');
      const asset = new sdk.Asset(code!, issuer);
      const trust = ops[1]!;
      if (trust.type !== 'changeTrust' || (trust.source ?? tx.source) !== sale.buyerAddress) return 'operations';
      if (!('code' in trust.line) || !trust.line.equals(asset)) return 'asset';
      const token = ops[2]!;
      if (token.type !== 'payment') return 'operations';
      if (!token.asset.equals(asset)) return 'asset';
      if (stroopsOf(token.amount) !== BigInt(sale.tokenAmount ?? 1)) return 'amount';
      if (token.destination !== sale.buyerAddress) return 'destination';
      if (token.source !== sale.sellerAddress) return 'source';
    }
    return null;
  }

  /** Settles the sale if its transaction is in a ledger, applied and doing what the sale says; true when settled. */
  async function settleIfSeen(sale: BidSaleDoc, now: Date): Promise<boolean> {
    const found = await horizon.findTransaction(sale.transactionHash).catch(failure);
    if (!found?.successful) return false;
    const sdk = await loadStellarSdk();
    const seen = new sdk.Transaction(found.envelopeXdr, sale.networkPassphrase);
    const differs = await differenceFrom(sale, seen);
    if (differs) {
      log.warn({ bidId: sale.bidId, transactionHash: found.hash, differs }, 'a transaction by the sale hash does not do what the sale says');
      return false;
    }
    await settle(sale, found.hash, now);
    return true;
  }

  /**
   * The piece changes hands: the ledger entry first (its insert is the exclusive step; seen twice, it is there
   * already and the rest is repeated harmlessly), then the owner, the bid, and the pending sale removed.
   */
  async function settle(sale: BidSaleDoc, hash: string, now: Date): Promise<void> {
    const price = sale.priceStroops;
    const { created } = await post({
      _id: `xlm:${hash}:0`,
      kind: 'sale',
      at: now,
      actorId: new Types.ObjectId(sale.buyerId),
      contentId: new Types.ObjectId(sale._id),
      legs: [
        { account: `stellar:${sale.buyerAddress}`, amountMicros: -price },
        { account: `stellar:${sale.sellerAddress}`, amountMicros: price },
      ],
      currency: 'XLM',
      ref: sale.bidId,
    });
    const buyer = await userReads.byId<{ username: string; fullName?: string }>(new Types.ObjectId(sale.buyerId), { username: 1, fullName: 1 });
    if (buyer)
      await transferOwner(new Types.ObjectId(sale._id), { id: new Types.ObjectId(sale.buyerId), username: buyer.username, fullName: buyer.fullName ?? '' });
    await noteBidOf(sale.sellerId, sale.bidId, now);
    await BidModel.updateOne({ _id: sale.bidId }, { $set: { sold: true, soldAt: now, sellerId: sale.sellerId, transactionHash: hash } });
    await deleteWhileStill(BidSaleModel, sale._id, { bidId: sale.bidId });
    if (created) log.info({ bidId: sale.bidId, contentId: sale._id, transactionHash: hash, priceStroops: price }, 'bid sale settled');
  }

  /** A sale past its time bound: settled if its transaction made it into a ledger, else back to open. */
  async function settleOrExpire(sale: BidSaleDoc, now: Date): Promise<'settled' | 'released' | 'pending'> {
    if (await settleIfSeen(sale, now)) return 'settled';
    if (now.getTime() > sale.expiresAt.getTime()) {
      await release(sale, 'expired');
      return 'released';
    }
    return 'pending';
  }

  /** Adds the caller's signatures to the sale's transaction; submits it once every needed one is there. */
  async function takeSigned(sale: BidSaleDoc, address: string, xdr: string, now: Date): Promise<BidSaleDoc> {
    const sdk = await loadStellarSdk();
    let given: Transaction;
    try {
      given = new sdk.Transaction(xdr, sale.networkPassphrase);
    } catch {
      throw badRequest(BID_MESSAGES.unreadable, [{ path: 'transaction', message: BID_MESSAGES.unreadable }]);
    }
    if (given.hash().toString('hex') !== sale.transactionHash) {
      const message = notTheSale((await differenceFrom(sale, given)) ?? 'operations');
      throw badRequest(message, [{ path: 'transaction', message }]);
    }
    const key = sdk.Keypair.fromPublicKey(address);
    const mine = given.signatures.filter((s) => s.hint().equals(key.signatureHint()) && key.verify(given.hash(), s.signature()));
    if (!mine.length) throw badRequest(BID_MESSAGES.notSigned, [{ path: 'transaction', message: BID_MESSAGES.notSigned }]);
    const { tx, signedBy } = await signaturesOf(sale);
    if (!signedBy.has(address)) for (const signature of mine) tx.signatures.push(signature);
    const merged: BidSaleDoc = { ...sale, transaction: tx.toXDR() };
    signedBy.add(address);
    const complete = neededSigners(sale).every((signer) => signedBy.has(signer));
    await updateWhileStill(
      BidSaleModel,
      sale._id,
      { bidId: sale.bidId },
      { $set: { transaction: merged.transaction, ...(complete && { status: 'submitted' }) } },
    );
    if (!complete) return merged;
    try {
      await horizon.submit(tx);
    } catch (err) {
      if (!(err instanceof HorizonRefusedError)) throw answerHorizonFailure(err, logger);
      if (await settleIfSeen(merged, now)) return { ...merged, status: 'submitted' };
      await updateWhileStill(BidSaleModel, sale._id, { bidId: sale.bidId }, { $set: { status: 'pending' } });
      log.info({ bidId: sale.bidId, resultCodes: err.resultCodes }, 'the network refused a bid sale');
      throw refusalInWords(err, BID_MESSAGES.refused, REFUSAL_WORDS);
    }
    return { ...merged, status: 'submitted' };
  }

  /** A transaction the wallet submitted itself: read from Horizon and checked before it is taken. */
  async function takeSubmitted(sale: BidSaleDoc, hash: string): Promise<BidSaleDoc> {
    const found = await horizon.findTransaction(hash).catch(failure);
    if (!found?.successful) throw badRequest(BID_MESSAGES.notInLedger, [{ path: 'transactionHash', message: BID_MESSAGES.notInLedger }]);
    const sdk = await loadStellarSdk();
    const seen = new sdk.Transaction(found.envelopeXdr, sale.networkPassphrase);
    const differs = await differenceFrom(sale, seen);
    if (differs) {
      const message = notTheSale(differs);
      throw badRequest(message, [{ path: 'transactionHash', message }]);
    }
    const taken: BidSaleDoc = { ...sale, transactionHash: found.hash, transaction: found.envelopeXdr, status: 'submitted' };
    await updateWhileStill(
      BidSaleModel,
      sale._id,
      { bidId: sale.bidId },
      { $set: { transactionHash: found.hash, transaction: found.envelopeXdr, status: 'submitted' } },
    );
    return taken;
  }

  return {
    async update(caller: AuthContext, request: Schemas['BidUpdateRequest'], now = new Date()): Promise<Schemas['BidResponse']> {
      await consumeLimit(`bid:${caller.userId}`, BID_LIMIT, BID_MESSAGES.tooMany, now);
      if (request.biderId !== caller.userId) throw notFound(BID_MESSAGES.notFound);
      const content = await contentOf(request.contentId);
      if (!content || !(await canView(content, caller))) throw notFound(BID_MESSAGES.contentNotFound);
      if (String(content.ownerId) === caller.userId) throw new AppError(403, 'forbidden', BID_MESSAGES.own);
      const price = priceToStroops(request.price);
      if (price === null || price > BigInt(Number.MAX_SAFE_INTEGER))
        throw badRequest(BID_MESSAGES.priceRequired, [{ path: 'price', message: BID_MESSAGES.priceRequired }]);
      if (await readSale(request.contentId)) throw new AppError(409, 'conflict', BID_MESSAGES.pending);
      const before = await latest(request.contentId, false);
      if (!before.current && (await isClosed(before.lastSold))) throw new AppError(409, 'conflict', BID_MESSAGES.closed);

      const wallet = await wallets.linkOf(caller);
      if (!wallet.linked || !wallet.address) throw badRequest(NFT_MESSAGES.noWallet);
      const earnings = await earningsMicrosOf(content);
      if (earnings > 0) {
        const reserve = usdMicrosToStroops(earnings, await horizon.xlmPerUsd().catch(failure));
        if (price <= reserve) throw badRequest(BID_MESSAGES.belowEarning, [{ path: 'price', message: BID_MESSAGES.belowEarning }]);
      }
      const account = await horizon.loadAccount(wallet.address).catch(failure);
      if (!account) throw badRequest(STELLAR_MESSAGES.noAccount);
      const native = account.balances.find((balance) => balance.asset_type === 'native');
      if ((native ? stroopsOf(native.balance) : 0n) < price + MINIMUM_BALANCE_STROOPS) throw badRequest(STELLAR_MESSAGES.insufficientBalance);

      let exact = false;
      for (let tries = 0; tries < MAX_TRIES; tries += 1) {
        const { n, current } = await latest(request.contentId, exact);
        if (current && price <= BigInt(current.priceStroops)) throw badRequest(BID_MESSAGES.belowBest, [{ path: 'price', message: BID_MESSAGES.belowBest }]);
        const bid: BidDoc = {
          _id: chains.idOf(request.contentId, n + 1),
          contentId: request.contentId,
          biderId: caller.userId,
          priceStroops: Number(price),
          unit: 'xlm',
          createdAt: now,
          deleted: false,
          sold: false,
          soldAt: null,
          sellerId: null,
          transactionHash: null,
        };
        // On the bidder's list first, so that no bid is ever theirs without being on it (an id whose insert loses
        // to another bidder's stays on the list, and their readers skip it: that bid names someone else).
        await noteBidOf(caller.userId, bid._id, now);
        if (await chains.insertAt(request.contentId, n + 1, bid)) {
          const id = chains.idOf(request.contentId, n + 1);
          // A sale made pending while this bid was being checked wins: this bid is withdrawn.
          const sale = await readSale(request.contentId);
          if (sale) {
            await BidModel.updateOne({ _id: id }, { $set: { deleted: true } });
            throw new AppError(409, 'conflict', BID_MESSAGES.pending);
          }
          log.info({ bidId: id, biderId: caller.userId, priceStroops: Number(price) }, 'bid placed');
          return answer(id, caller);
        }
        exact = true;
      }
      throw new AppError(409, 'conflict', BID_MESSAGES.belowBest);
    },

    async sell(caller: AuthContext, request: Schemas['BidSellRequest'], now = new Date()): Promise<Schemas['BidResponse']> {
      await consumeLimit(`bid-action:${caller.userId}`, BID_ACTION_LIMIT, BID_MESSAGES.tooManyActions, now);
      const bid = await readBid(request.bidId);
      const content = bid && (await contentOf(bid.contentId));
      if (!bid || !content || String(content.ownerId) !== caller.userId) throw notFound(BID_MESSAGES.notFound);
      const { current } = await latest(bid.contentId, true);
      if (!current || current._id !== bid._id || (await readSale(bid.contentId))) throw new AppError(409, 'conflict', BID_MESSAGES.cannotSell);
      const seller = await wallets.linkOf(caller);
      if (!seller.linked || !seller.address) throw badRequest(NFT_MESSAGES.noWallet);
      const buyer = await linkOfMember(bid.biderId);
      if (!buyer.linked || !buyer.address) throw badRequest(BID_MESSAGES.bidderNoWallet);

      const sdk = await loadStellarSdk();
      const [account, baseFee] = await Promise.all([horizon.loadAccount(buyer.address), horizon.baseFee()]).catch(failure);
      if (!account) throw badRequest(STELLAR_MESSAGES.noAccount);
      const memoHash = saleMemoHash(bid._id);
      const builder = new sdk.TransactionBuilder(account, { fee: String(baseFee), networkPassphrase: horizon.network.passphrase })
        .addOperation(sdk.Operation.payment({ destination: seller.address, asset: sdk.Asset.native(), amount: formatStroops(BigInt(bid.priceStroops)) }))
        .addMemo(sdk.Memo.hash(memoHash))
        .setTimeout(SALE_SECONDS);
      const nft = content.nft;
      if (nft) {
        const asset = new sdk.Asset(nft.tokenCode, nft.tokenIssuer);
        builder
          .addOperation(sdk.Operation.changeTrust({ asset }))
          .addOperation(sdk.Operation.payment({ source: seller.address, destination: buyer.address, asset, amount: formatStroops(BigInt(nft.tokenAmount)) }));
      }
      const tx = builder.build();
      const sale: BidSaleDoc = {
        _id: bid.contentId,
        bidId: bid._id,
        buyerId: bid.biderId,
        sellerId: caller.userId,
        buyerAddress: buyer.address,
        sellerAddress: seller.address,
        priceStroops: bid.priceStroops,
        asset: nft ? `${nft.tokenCode}:${nft.tokenIssuer}` : null,
        tokenAmount: nft ? nft.tokenAmount : null,
        transaction: tx.toXDR(),
        transactionHash: tx.hash().toString('hex'),
        networkPassphrase: horizon.network.passphrase,
        memoHash: memoHash.toString('hex'),
        expiresAt: new Date(Number(tx.timeBounds!.maxTime) * 1000),
        status: 'pending',
        createdAt: now,
      };
      try {
        await insertWhole(BidSaleModel, sale);
      } catch (err) {
        if (isDuplicateKey(err)) throw new AppError(409, 'conflict', BID_MESSAGES.cannotSell);
        throw err;
      }
      // A bid inserted while this sale was being made wins: the sale ends before anyone signs it.
      const after = await latest(bid.contentId, true);
      if (after.current?._id !== bid._id) {
        await release(sale, 'outbid while being made');
        throw new AppError(409, 'conflict', BID_MESSAGES.cannotSell);
      }
      log.info({ bidId: bid._id, contentId: bid.contentId, transactionHash: sale.transactionHash }, 'bid sale pending');
      await tellBuyer(sale, content);
      const answered = await answer(bid._id, caller);
      return { ...answered, sale: await saleView(sale) };
    },

    async approve(caller: AuthContext, request: Schemas['BidApproveRequest'], now = new Date()): Promise<Schemas['BidResponse']> {
      await consumeLimit(`bid-action:${caller.userId}`, BID_ACTION_LIMIT, BID_MESSAGES.tooManyActions, now);
      const bid = await namedBid(caller, request);
      const sale = await readSale(bid.contentId);
      if (!sale || sale.bidId !== bid._id) {
        if (bid.sold && (caller.userId === bid.biderId || caller.userId === bid.sellerId)) return answer(bid._id, caller);
        if (caller.userId !== bid.biderId) throw notFound(BID_MESSAGES.notFound);
        throw new AppError(409, 'conflict', BID_MESSAGES.cannotSell);
      }
      const role = caller.userId === sale.buyerId ? 'buyer' : caller.userId === sale.sellerId ? 'seller' : null;
      if (!role) throw notFound(BID_MESSAGES.notFound);

      if (now.getTime() > sale.expiresAt.getTime()) {
        const outcome = await settleOrExpire(sale, now);
        if (outcome === 'settled') return answer(bid._id, caller, { sale, status: 'settled' });
        if (outcome === 'released') throw badRequest(BID_MESSAGES.expired);
      }
      if (!request.succeed) {
        if (sale.status === 'submitted') {
          if (await settleIfSeen(sale, now)) return answer(bid._id, caller, { sale, status: 'settled' });
          throw new AppError(409, 'conflict', BID_MESSAGES.sent);
        }
        await release(sale, `the ${role}'s wallet did not sign`);
        return answer(bid._id, caller, { sale, status: 'released' });
      }

      let current = sale;
      if (request.transaction || request.transactionHash) {
        const address = request.stellarAddress;
        if (!address) throw badRequest(BID_MESSAGES.needAddress, [{ path: 'stellarAddress', message: BID_MESSAGES.needAddress }]);
        const link = await wallets.linkOf(caller);
        if (!link.linked || link.address !== address)
          throw badRequest(BID_MESSAGES.notYourAddress, [{ path: 'stellarAddress', message: BID_MESSAGES.notYourAddress }]);
        if (!neededSigners(sale).includes(address) || address !== (role === 'buyer' ? sale.buyerAddress : sale.sellerAddress))
          throw badRequest(BID_MESSAGES.notASigner, [{ path: 'stellarAddress', message: BID_MESSAGES.notASigner }]);
        current = request.transaction
          ? await takeSigned(sale, address, request.transaction, now)
          : await takeSubmitted(sale, request.transactionHash!.toLowerCase());
      }
      if (current.status === 'submitted' && (await settleIfSeen(current, now))) return answer(bid._id, caller, { sale: current, status: 'settled' });
      return answer(bid._id, caller, { sale: current, status: current.status });
    },

    async cancel(caller: AuthContext, request: Schemas['BidCancelRequest'], now = new Date()): Promise<Schemas['BidResponse']> {
      await consumeLimit(`bid-action:${caller.userId}`, BID_ACTION_LIMIT, BID_MESSAGES.tooManyActions, now);
      const bid = await namedBid(caller, request);
      const sale = await readSale(bid.contentId);
      const saleOfBid = sale && sale.bidId === bid._id ? sale : null;
      const party = saleOfBid && (caller.userId === saleOfBid.buyerId || caller.userId === saleOfBid.sellerId);
      if (!party && caller.userId !== bid.biderId) throw notFound(BID_MESSAGES.notFound);
      if (bid.sold) throw new AppError(409, 'conflict', BID_MESSAGES.cannotSell);

      if (request.succeed) {
        if (saleOfBid) {
          if (saleOfBid.status === 'submitted' || (await settleIfSeen(saleOfBid, now))) {
            if (await settleIfSeen(saleOfBid, now)) return answer(bid._id, caller, { sale: saleOfBid, status: 'settled' });
            throw new AppError(409, 'conflict', BID_MESSAGES.sent);
          }
          await release(saleOfBid, 'cancelled by a party');
          return answer(bid._id, caller, { sale: saleOfBid, status: 'released' });
        }
        if (!bid.deleted) {
          await BidModel.updateOne({ _id: bid._id }, { $set: { deleted: true } });
          log.info({ bidId: bid._id }, 'bid withdrawn');
        }
        return answer(bid._id, caller);
      }

      if (caller.userId !== bid.biderId) throw notFound(BID_MESSAGES.notFound);
      if (!bid.deleted) return answer(bid._id, caller);
      if (sale) throw new AppError(409, 'conflict', BID_MESSAGES.pending);
      const { n } = await chains.end(bid.contentId, true);
      for (let i = numberOf(bid._id) + 1; i <= n; i += 1) {
        const later = await readBid(chains.idOf(bid.contentId, i));
        if (later && (!later.deleted || later.sold)) throw badRequest(BID_MESSAGES.belowBest, [{ path: 'succeed', message: BID_MESSAGES.belowBest }]);
      }
      await BidModel.updateOne({ _id: bid._id }, { $set: { deleted: false } });
      log.info({ bidId: bid._id }, 'bid restored');
      return answer(bid._id, caller);
    },

    async get(caller: Caller, id: string): Promise<Schemas['BidResponse']> {
      const bid = await readBid(id);
      const content = bid && (await contentOf(bid.contentId));
      if (!bid || !content || !(await canView(content, caller))) throw notFound(BID_MESSAGES.notFound);
      return answer(id, caller);
    },

    async list(caller: Caller, contentId: string): Promise<Schemas['BidList']> {
      const content = await contentOf(contentId);
      if (!content || !(await canView(content, caller))) throw notFound(BID_MESSAGES.contentNotFound);
      const [{ n, current }, sale] = await Promise.all([latest(contentId, true), readSale(contentId)]);
      const numbers = Array.from({ length: Math.min(n, LIST_SIZE) }, (_, i) => n - i);
      const bids = (await Promise.all(numbers.map((i) => readBid(chains.idOf(contentId, i))))).filter((bid): bid is BidDoc => Boolean(bid));
      const names = await usernames(bids.flatMap((bid) => [bid.biderId, bid.sellerId ?? '']));
      const earnings = await earningsMicrosOf(content);
      // The rate is read only when the reserve needs it or the owner reads, who sees a sale's worth in dollars. It is
      // the reading shown on pages (up to ten minutes old, never waiting on a failing Horizon); one that cannot be
      // read leaves both null rather than failing the list. Placing a bid checks the reserve at a fresh reading.
      const wantsRate = earnings > 0 || caller?.userId === String(content.ownerId);
      const xlmPerUsd = wantsRate ? ((await horizon.shownUsdRate())?.xlmPerUsd ?? null) : null;
      const reserve = earnings === 0 ? 0 : xlmPerUsd === null ? null : stroopsToPrice(usdMicrosToStroops(earnings, xlmPerUsd));
      const party = caller && sale && (caller.userId === sale.buyerId || caller.userId === sale.sellerId);
      const lastSold = bids.find((bid) => bid.sold) ?? null;
      const closed = !current && (await isClosed(lastSold));
      const owner = caller?.userId === String(content.ownerId);
      return {
        bids: bids.map((bid) => bidView(bid, { current: bid._id === current?._id, pending: sale?.bidId === bid._id, names })),
        lastSale: lastSold && {
          bidId: lastSold._id,
          price: stroopsToPrice(lastSold.priceStroops),
          soldAt: (lastSold.soldAt ?? lastSold.createdAt).toISOString(),
        },
        closed,
        relistFee: closed && owner ? microsToUsd(waivableFee(relistFeeMicros(earnings))) : null,
        count: n,
        currentBidId: current?._id ?? null,
        highestPrice: current ? stroopsToPrice(current.priceStroops) : 0,
        unit: 'xlm',
        pending: Boolean(sale),
        reserve,
        xlmPerUsd,
        ...(party && { sale: await saleView(sale) }),
      };
    },

    /**
     * The owner of a piece closed by its sale opens it to bids again: the relisting fee (10% of the reserve) is paid
     * like a listing fee's card payment, or waived under the card minimum (payments module).
     */
    async relist(caller: AuthContext, request: Schemas['BidRelistRequest'], origin?: string, now = new Date()) {
      await consumeLimit(`bid-action:${caller.userId}`, BID_ACTION_LIMIT, BID_MESSAGES.tooManyActions, now);
      const content = await contentOf(request.contentId);
      if (!content || String(content.ownerId) !== caller.userId) throw notFound(BID_MESSAGES.contentNotFound);
      const { current, lastSold } = await latest(request.contentId, true);
      if (current || !lastSold || !(await isClosed(lastSold))) throw new AppError(409, 'conflict', BID_MESSAGES.openAlready);
      const answer = await payments.relist(caller, { content, soldBidId: lastSold._id, feeMicros: relistFeeMicros(await earningsMicrosOf(content)) }, origin);
      log.info({ contentId: request.contentId, soldBidId: lastSold._id, status: answer.status }, 'relisting');
      return answer;
    },

    /** Every pending sale looked for on the network: settled when its transaction is in a ledger, released once expired. */
    async settlePending(now = new Date()): Promise<{ settled: number; released: number }> {
      // The pending sales are few (at most one per piece on sale right now), so they are read whole.
      const sales = await BidSaleModel.find({}).lean<BidSaleDoc[]>();
      let settled = 0;
      let released = 0;
      for (const sale of sales) {
        try {
          const outcome = await settleOrExpire(sale, now);
          if (outcome === 'settled') settled += 1;
          if (outcome === 'released') released += 1;
        } catch (err) {
          log.warn({ err, bidId: sale.bidId }, 'a pending bid sale could not be looked up');
        }
      }
      return { settled, released };
    },

    /** The signed token of the inbox links to a bid's sale, for its bidder. */
    linkToken: (bidId: string, biderId: string) => bidLinkToken(linksKey, bidId, biderId),
  };
}

export type BidsService = ReturnType<typeof createBidsService>;
