/**
 * Bids and their sale, on the real app and database, with Knack's Horizon driver pointed at the Horizon stand-in
 * (which checks signatures, sequence numbers, fees and time bounds, and applies the payments):
 * - bid/update's messages, permissions and the balance check; 20 bids at once leave one current best bid;
 * - bid/sell makes one pending sale whose transaction both wallets sign; the piece changes hands only once the
 *   transaction is in a ledger, once, and the buyer earns its later knacks; balances move by the price and the fee;
 * - a transaction with another memo, amount or destination is refused; a sale that times out goes back to open;
 * - withdraw, restore, and the reads of the buy/sell panel.
 */
import { createHash } from 'node:crypto';
import { Account, Asset, Keypair, Memo, Operation, Transaction, TransactionBuilder } from '@stellar/stellar-sdk';
import request, { type Response } from 'supertest';
import { Types } from 'mongoose';
import { seedReferenceData } from '../../server/db/seed';
import { RATE_TTL_MS } from '../../server/integrations/horizon';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { bidListsState, forgetBidChains } from '../../server/modules/bids';
import { BidModel, BidSaleModel } from '../../server/modules/bids/testing';
import { ContentModel } from '../../server/modules/contents';
import { balanceOf, LedgerEntryModel, userAccount } from '../../server/modules/ledger';
import { createTestApp, createTestServices } from '../helpers/app';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';
import { bearer, createMember, createPiece, knackBy, payListing, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { spyOnScans } from '../helpers/read-meter';
import { linkWallet } from '../helpers/stellar-wallet';

useTestDatabase();

const TESTNET = 'Test SDF Network ; September 2015';
const PRICE_REQUIRED = 'You must input the price.';
const BELOW_BEST = 'The price must be bigger than the current best bid price.';
const BELOW_EARNING = 'The price must be bigger than the current earning.';
const PENDING = "This upload is pending to sell now, So you can't bid.";
const CANNOT_SELL = "You can't sell";
const NO_WALLET = 'Link a Stellar wallet first.';
const INSUFFICIENT = 'Insufficient account balance';
const OWN = 'You cannot bid on your own piece.';
const STROOPS = 10_000_000n;
const CLOSED = 'This piece was sold: its owner has not opened it to bids again yet.';
const OPEN_ALREADY = 'This piece is open for bids already.';

let standIn: HorizonStandIn;
let app: ReturnType<typeof createTestApp>;
let services: ReturnType<typeof createTestServices>;

beforeAll(async () => {
  standIn = await startHorizonStandIn();
  standIn.setOrderBook({ asks: [{ price: '0.1', amount: '1000' }] });
  app = createTestApp({ config: { stellar: standIn.stellarConfig } });
  services = createTestServices({ config: { stellar: standIn.stellarConfig } });
  await seedReferenceData();
}, 60_000);

afterAll(async () => standIn.stop());

beforeEach(async () => {
  await RateLimitModel.deleteMany({});
  forgetBidChains();
});

interface Party {
  member: TestMember;
  wallet: Keypair;
}

async function party(xlm: string | null = '1000'): Promise<Party> {
  const member = await createMember();
  const wallet = await linkWallet(app, bearer(member));
  if (xlm) standIn.fund(wallet.publicKey(), xlm);
  return { member, wallet };
}

const post = (member: TestMember, url: string, body: object): Promise<Response> => request(app).post(`/api/v2${url}`).set(bearer(member)).send(body);
const bid = (who: Party | TestMember, piece: TestPiece, price: unknown) => {
  const member = 'member' in who ? who.member : who;
  return post(member, '/bid/update', { contentId: piece.id, biderId: member.id, price, unit: 'xlm' });
};
const list = (piece: TestPiece) => request(app).get(`/api/v2/bid/getAllByContent/${piece.id}`);
const signed = (xdr: string, ...keys: Keypair[]) => {
  const tx = new Transaction(xdr, TESTNET);
  for (const key of keys) tx.sign(key);
  return tx.toXDR();
};

/** The party's account as the stand-in has it now, to build a transaction by hand. */
const accountOf = ({ wallet }: Party) => new Account(wallet.publicKey(), standIn.account(wallet.publicKey())!.sequence);

/** An asset of a new issuer that `holder` holds 100 of and `receiver` can receive: to pay in something other than XLM. */
async function issuedAssetHeldBy(holder: Party, receiver: Party): Promise<Asset> {
  const issuer = await party('100');
  const asset = new Asset('USDX', issuer.wallet.publicKey());
  const submit = async (from: Party, operation: Parameters<TransactionBuilder['addOperation']>[0]) => {
    const tx = new TransactionBuilder(accountOf(from), { fee: '200', networkPassphrase: TESTNET }).addOperation(operation).setTimeout(300).build();
    tx.sign(from.wallet);
    expect((await request(standIn.url).post('/transactions').type('form').send({ tx: tx.toXDR() })).status).toBe(200);
  };
  await submit(holder, Operation.changeTrust({ asset }));
  await submit(receiver, Operation.changeTrust({ asset }));
  await submit(issuer, Operation.payment({ destination: holder.wallet.publicKey(), asset, amount: '100' }));
  return asset;
}

/** A piece of a seller with a linked wallet, and a bid on it by a buyer. */
async function pieceWithBid(price = 25) {
  const seller = await party('100');
  const buyer = await party('1000');
  const piece = await createPiece(seller.member);
  const placed = await bid(buyer, piece, price);
  expect(placed.status).toBe(201);
  return { seller, buyer, piece, bidId: placed.body.bid.id as string };
}

describe('bidding', () => {
  it.each([[undefined], [0], [-3], [1.234]])('when the price is %p, then 400 "You must input the price."', async (price) => {
    const buyer = await party();
    const piece = await createPiece(await createMember());
    const res = await bid(buyer, piece, price);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(PRICE_REQUIRED);
  });

  it('when the owner bids, then 403; another member’s id, 404; no wallet, 400; too little XLM, 400', async () => {
    const owner = await party();
    const piece = await createPiece(owner.member);
    expect(await bid(owner, piece, 5)).toMatchObject({ status: 403, body: { message: OWN } });
    const other = await party();
    const asOther = await post(other.member, '/bid/update', { contentId: piece.id, biderId: owner.member.id, price: 5, unit: 'xlm' });
    expect(asOther.status).toBe(404);
    expect(await bid(await createMember(), piece, 5)).toMatchObject({ status: 400, body: { message: NO_WALLET } });
    const poor = await party('10');
    expect(await bid(poor, piece, 7.01)).toMatchObject({ status: 400, body: { message: INSUFFICIENT } });
    expect((await bid(poor, piece, 7)).status).toBe(201);
  });

  it('when a bid is not bigger than the current best, or than the earnings at the current rate, then the messages', async () => {
    const owner = await party();
    const piece = await payListing(await createPiece(owner.member, { knackRateMicros: 50_000 }), owner.member);
    // What its knacks credited, each at the tag price of its day: $2.00 in all (20 XLM at 10 XLM a dollar), although
    // the kept count times the value at publication would say 2 × $0.05.
    await knackBy(await createMember(), { ...piece, knackRateMicros: 1_500_000 });
    await knackBy(await createMember(), { ...piece, knackRateMicros: 500_000 });
    await ContentModel.updateOne({ _id: piece.id }, { $set: { reactedCount: 2 } });
    const [a, b] = [await party(), await party()];
    expect(await bid(a, piece, 20)).toMatchObject({ status: 400, body: { message: BELOW_EARNING } });
    expect((await bid(a, piece, 20.01)).status).toBe(201);
    expect(await bid(b, piece, 20.01)).toMatchObject({ status: 400, body: { message: BELOW_BEST } });
    const panel = await list(piece).expect(200);
    expect(panel.body).toMatchObject({ count: 1, highestPrice: 20.01, unit: 'xlm', pending: false, reserve: 20, xlmPerUsd: 10 });

    // Horizon unreachable: the list still shows the reserve at the reading kept (pages never wait on Horizon), but a
    // bid, which must beat the reserve at a fresh reading, cannot be placed until one can be read.
    const clock = freezeDate();
    await standIn.stop();
    try {
      clock.advance(RATE_TTL_MS + 1_000);
      expect((await list(piece).expect(200)).body).toMatchObject({ reserve: 20, xlmPerUsd: 10 });
      expect((await bid(b, piece, 30)).status).toBe(503);
      expect((await list(piece).expect(200)).body).toMatchObject({ reserve: 20, xlmPerUsd: 10, highestPrice: 20.01 });
    } finally {
      clock.restore();
      await standIn.restart();
    }
  });

  it("when the owner reads a piece's bids, then the rate comes with them (for what a sale brings in dollars); when Horizon has none, it is null and the list still answers", async () => {
    const owner = await party();
    const piece = await createPiece(owner.member);
    expect((await list(piece).set(bearer(owner.member)).expect(200)).body).toMatchObject({ reserve: 0, xlmPerUsd: 10 });
    // Another reader of a piece that earned nothing needs no rate: Horizon is not asked.
    const asked = standIn.requests.length;
    expect((await list(piece).expect(200)).body).toMatchObject({ reserve: 0, xlmPerUsd: null });
    expect(standIn.requests.length).toBe(asked);
    await standIn.stop();
    try {
      expect((await list(piece).set(bearer(owner.member)).expect(200)).body).toMatchObject({ reserve: 0 });
    } finally {
      await standIn.restart();
    }
  });

  it('when 20 members bid at once, then one current best bid is left and the chain of bids rises', async () => {
    const owner = await party();
    const piece = await createPiece(owner.member);
    const bidders = await Promise.all(Array.from({ length: 20 }, () => party()));
    const answers = await Promise.all(bidders.map((bidder, i) => bid(bidder, piece, 10 + i)));
    for (const res of answers) expect([201, 400]).toContain(res.status);
    for (const res of answers.filter((r) => r.status === 400)) expect(res.body.message).toBe(BELOW_BEST);
    const bids = await BidModel.find({ contentId: piece.id }).lean();
    const chain = bids.sort((x, y) => Number(x._id.split(':')[1]) - Number(y._id.split(':')[1]));
    expect(chain.map((b) => b._id)).toEqual(chain.map((_, i) => `${piece.id}:${i + 1}`));
    for (let i = 1; i < chain.length; i += 1) expect(chain[i]!.priceStroops).toBeGreaterThan(chain[i - 1]!.priceStroops);
    expect(chain.length).toBe(answers.filter((r) => r.status === 201).length);
    const panel = await list(piece).expect(200);
    expect(panel.body.bids.filter((b: { current: boolean }) => b.current)).toHaveLength(1);
    expect(panel.body.currentBidId).toBe(chain[chain.length - 1]!._id);
    expect(panel.body.highestPrice).toBe(Number(BigInt(chain[chain.length - 1]!.priceStroops) / 100_000n) / 100);
    // Each bidder's download has their own bid and no other: a number one of them noted and another took is theirs only.
    const exported = await Promise.all(
      bidders.map(async ({ member }) => (await request(app).get(`/api/v2/user-setting/download-data/${member.id}`).set(bearer(member)).expect(200)).body.bids),
    );
    const byBidder = new Map(chain.map((b) => [b.biderId, b._id]));
    bidders.forEach(({ member }, i) =>
      expect(exported[i].map((row: { id: string }) => row.id)).toEqual(byBidder.has(member.id) ? [byBidder.get(member.id)] : []),
    );
    expect(await bidListsState.check()).toMatchObject({ differences: [] });
  });

  it('when the bidder withdraws, the bid before is current; restoring works only while it would still be the best', async () => {
    const owner = await party();
    const piece = await createPiece(owner.member);
    const [a, b, c] = [await party(), await party(), await party()];
    const first = (await bid(a, piece, 5)).body.bid.id;
    const second = (await bid(b, piece, 6)).body.bid.id;
    expect((await post(c.member, '/bid/cancel', { bidId: second, succeed: true })).status).toBe(404);
    const withdrawn = await post(b.member, '/bid/cancel', { bidId: second, succeed: true });
    expect(withdrawn.body.bid).toMatchObject({ deleted: true, current: false });
    expect((await list(piece)).body.currentBidId).toBe(first);
    expect((await post(b.member, '/bid/cancel', { bidId: second, succeed: false })).body.bid).toMatchObject({ deleted: false, current: true });
    await post(b.member, '/bid/cancel', { bidId: second, succeed: true });
    expect((await bid(c, piece, 5.5)).status).toBe(201);
    expect(await post(b.member, '/bid/cancel', { bidId: second, succeed: false })).toMatchObject({ status: 400, body: { message: BELOW_BEST } });
  });
});

describe('selling', () => {
  it('when a non-owner sells, then 404; a bid that is not the current best, "You can\'t sell"', async () => {
    const { buyer, piece, bidId, seller } = await pieceWithBid(10);
    expect((await post(buyer.member, '/bid/sell', { bidId })).status).toBe(404);
    const higher = await party();
    await bid(higher, piece, 11);
    expect(await post(seller.member, '/bid/sell', { bidId })).toMatchObject({ status: 409, body: { message: CANNOT_SELL } });
  });

  it('when the owner sells and the buyer signs, then the piece changes hands once it is in a ledger, once, and the buyer earns its later knacks', async () => {
    const { seller, buyer, piece, bidId } = await pieceWithBid(25);
    const before = { buyer: standIn.balance(buyer.wallet.publicKey())!, seller: standIn.balance(seller.wallet.publicKey())! };
    const sold = await post(seller.member, '/bid/sell', { bidId });
    expect(sold.status).toBe(200);
    const sale = sold.body.sale;
    expect(sale).toMatchObject({
      bidId,
      status: 'pending',
      price: 25,
      networkPassphrase: TESTNET,
      memoHash: createHash('sha256').update(`knack-bid:${bidId}`).digest('hex'),
      signers: [{ role: 'buyer', address: buyer.wallet.publicKey(), signed: false }],
    });
    expect(sold.body.bid).toMatchObject({ pending: true, current: true });
    // Bidding is blocked while the sale is pending.
    expect(await bid(await party(), piece, 30)).toMatchObject({ status: 409, body: { message: PENDING } });
    // Nothing changed hands yet.
    expect(String((await ContentModel.findById(piece.id).lean())!.ownerId)).toBe(seller.member.id);

    const approved = await post(buyer.member, '/bid/approve', {
      bidId,
      stellarAddress: buyer.wallet.publicKey(),
      succeed: true,
      transaction: signed(sale.transaction, buyer.wallet),
    });
    expect(approved.status).toBe(200);
    expect(approved.body.sale.status).toBe('settled');
    expect(approved.body.bid).toMatchObject({ sold: true, sellerId: seller.member.id, transactionHash: sale.transactionHash });
    expect(String((await ContentModel.findById(piece.id).lean())!.ownerId)).toBe(buyer.member.id);
    // The share link from before the sale still leads to the piece, which answers its new link.
    const { slug } = (await ContentModel.findById(piece.id).lean())!;
    const byOldLink = await request(app).get(`/api/v2/content/get-by-link/${seller.member.username}/${slug}`).expect(200);
    expect(byOldLink.body.content).toMatchObject({ id: piece.id, link: `/${buyer.member.username}-${slug}` });
    const entries = await LedgerEntryModel.find({ kind: 'sale' as never, contentId: new Types.ObjectId(piece.id) }).lean();
    expect(entries.map((e) => e._id)).toEqual([`xlm:${sale.transactionHash}:0`]);
    expect(entries[0]!.legs).toEqual([
      { account: `stellar:${buyer.wallet.publicKey()}`, amountMicros: -250_000_000 },
      { account: `stellar:${seller.wallet.publicKey()}`, amountMicros: 250_000_000 },
    ]);
    // The price and the fee (one operation at the base fee), not a stroop more.
    const fee = BigInt(new Transaction(sale.transaction, TESTNET).fee);
    expect(standIn.balance(buyer.wallet.publicKey())).toBe(before.buyer - 25n * STROOPS - fee);
    expect(standIn.balance(seller.wallet.publicKey())).toBe(before.seller + 25n * STROOPS);

    // Seen again by the job and by another approve at once: settled once.
    await Promise.all([services.bids.settlePending(), post(buyer.member, '/bid/approve', { bidId, succeed: true })]);
    expect(await LedgerEntryModel.countDocuments({ kind: 'sale' as never, contentId: new Types.ObjectId(piece.id) })).toBe(0 + entries.length);
    expect(await BidSaleModel.countDocuments({ _id: piece.id })).toBe(0);

    // The buyer earns the piece's later knacks.
    await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true } });
    const viewer = await createMember();
    expect((await post(viewer, '/knack/add', { contentId: piece.id, userId: viewer.id })).status).toBe(200);
    expect(await balanceOf(userAccount(buyer.member.id))).toBe(piece.knackRateMicros);
    expect(await balanceOf(userAccount(seller.member.id))).toBe(0);
    // Sold, the piece is closed to bids until its new owner relists it; the panel shows the sale.
    expect(await bid(seller, piece, 30)).toMatchObject({ status: 409, body: { message: CLOSED } });
    const closed = (await list(piece).expect(200)).body;
    expect(closed).toMatchObject({ closed: true, currentBidId: null, highestPrice: 0, relistFee: null, pending: false });
    expect(closed.lastSale).toEqual({ bidId, price: 25, soldAt: expect.any(String) });
    expect((await list(piece).set(bearer(seller.member))).body.relistFee).toBeNull();
    // One knack of $0.05 earned: 10% of it is under the card minimum, so the relisting fee is waived.
    expect((await list(piece).set(bearer(buyer.member))).body.relistFee).toBe(0);
    expect((await post(seller.member, '/bid/relist', { contentId: piece.id })).status).toBe(404);
    expect((await post(buyer.member, '/bid/relist', { contentId: piece.id })).body).toEqual({ status: 'relisted' });
    const relisting = (await LedgerEntryModel.findById(`relisting:${bidId}`).lean())!;
    expect(relisting).toMatchObject({ kind: 'relisting', amountMicros: 0, method: null, legs: [], actorId: new Types.ObjectId(buyer.member.id) });
    expect(await post(buyer.member, '/bid/relist', { contentId: piece.id })).toMatchObject({ status: 409, body: { message: OPEN_ALREADY } });
    expect((await list(piece)).body).toMatchObject({ closed: false, lastSale: { bidId, price: 25 } });
    expect((await bid(seller, piece, 1)).status).toBe(201);

    // "Download my data": each side finds the bid, as bidder and as seller.
    const exported = async (who: Party) =>
      (await request(app).get(`/api/v2/user-setting/download-data/${who.member.id}`).set(bearer(who.member)).expect(200)).body;
    expect((await exported(buyer)).bids).toEqual([
      {
        id: bidId,
        role: 'bidder',
        contentId: piece.id,
        price: 25,
        unit: 'xlm',
        createdAt: expect.any(String),
        withdrawn: false,
        sold: true,
        soldAt: expect.any(String),
        transactionHash: sale.transactionHash,
      },
    ]);
    const reads = spyOnScans('bids', 'bid_lists');
    const sellers = await exported(seller);
    // Read through the seller's list by `_id`: no pass over the bids, however many other members made.
    expect(reads.scans()).toEqual([]);
    expect(reads.reads()).toBeGreaterThan(0);
    reads.restore();
    expect(sellers.bids.map((row: { id: string; role: string }) => [row.id, row.role])).toEqual([
      [bidId, 'seller'],
      [`${piece.id}:2`, 'bidder'],
    ]);
    // Every bid naming a member is on that member's list.
    expect(await bidListsState.check()).toMatchObject({ differences: [] });
    expect((await exported(buyer)).ledgerEntries).toContainEqual(expect.objectContaining({ id: `relisting:${bidId}`, kind: 'relisting', amountMicros: 0 }));
  });

  it('when the sale is approved with the hash of a transaction with another amount, memo, destination, source or asset, then it is refused and nothing settles', async () => {
    const { seller, buyer, piece, bidId } = await pieceWithBid(25);
    const sale = (await post(seller.member, '/bid/sell', { bidId })).body.sale;
    const wrong = async (amount: string, memo: Buffer, destination = seller.wallet.publicKey(), from = buyer, asset = Asset.native()) => {
      const account = accountOf(from);
      const tx = new TransactionBuilder(account, { fee: '200', networkPassphrase: TESTNET })
        .addOperation(Operation.payment({ destination, asset, amount }))
        .addMemo(Memo.hash(memo))
        .setTimeout(300)
        .build();
      tx.sign(from.wallet);
      const res = await request(standIn.url).post('/transactions').type('form').send({ tx: tx.toXDR() });
      expect(res.status).toBe(200);
      return tx.hash().toString('hex');
    };
    const memo = Buffer.from(sale.memoHash, 'hex');
    const cases: [string, string][] = [
      [await wrong('24.0000000', memo), 'This is not the transaction of this sale: its amount differs.'],
      [await wrong('25.0000000', createHash('sha256').update('knack-bid:other').digest()), 'This is not the transaction of this sale: its memo differs.'],
      [await wrong('25.0000000', memo, (await party()).wallet.publicKey()), 'This is not the transaction of this sale: its destination differs.'],
      [await wrong('25.0000000', memo, seller.wallet.publicKey(), await party()), 'This is not the transaction of this sale: its source differs.'],
      [
        await wrong('25.0000000', memo, seller.wallet.publicKey(), buyer, await issuedAssetHeldBy(buyer, seller)),
        'This is not the transaction of this sale: its asset differs.',
      ],
    ];
    for (const [transactionHash, message] of cases) {
      const res = await post(buyer.member, '/bid/approve', { bidId, stellarAddress: buyer.wallet.publicKey(), succeed: true, transactionHash });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await LedgerEntryModel.countDocuments({ contentId: new Types.ObjectId(piece.id) })).toBe(0);
    expect(String((await ContentModel.findById(piece.id).lean())!.ownerId)).toBe(seller.member.id);
    // The prepared transaction, edited: refused with what differs.
    const edited = new Transaction(sale.transaction, TESTNET);
    const tampered = new TransactionBuilder(accountOf(buyer), { fee: edited.fee, networkPassphrase: TESTNET })
      .addOperation(Operation.payment({ destination: seller.wallet.publicKey(), asset: Asset.native(), amount: '1.0000000' }))
      .addMemo(Memo.hash(memo))
      .setTimeout(300)
      .build();
    const res = await post(buyer.member, '/bid/approve', {
      bidId,
      stellarAddress: buyer.wallet.publicKey(),
      succeed: true,
      transaction: signed(tampered.toXDR(), buyer.wallet),
    });
    expect(res.body.message).toBe('This is not the transaction of this sale: its amount differs.');
  });

  it('when the new owner relists a piece that earned $10, then the fee is $1.00 by card checkout, and bidding opens once it is paid', async () => {
    const { seller, buyer, piece, bidId } = await pieceWithBid(25);
    const sale = (await post(seller.member, '/bid/sell', { bidId })).body.sale;
    await post(buyer.member, '/bid/approve', {
      bidId,
      stellarAddress: buyer.wallet.publicKey(),
      succeed: true,
      transaction: signed(sale.transaction, buyer.wallet),
    });
    // Its knacks credited $10 (to the seller, who owned and paid it out then), so the reserve is 100 XLM and relisting
    // costs $1.00.
    await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true } });
    await knackBy(await createMember(), { ...piece, payerId: seller.member.id, knackRateMicros: 4_000_000 });
    await knackBy(await createMember(), { ...piece, payerId: seller.member.id, knackRateMicros: 6_000_000 });
    expect((await list(piece).set(bearer(buyer.member))).body).toMatchObject({ closed: true, relistFee: 1, reserve: 100 });

    const relist = await post(buyer.member, '/bid/relist', { contentId: piece.id });
    expect(relist.status).toBe(200);
    expect(relist.body).toEqual({
      status: 'checkout',
      orderId: expect.stringMatching(/^[0-9a-f]{24}$/),
      checkoutUrl: expect.stringContaining('/checkout/sandbox/'),
    });
    // Not open until the payment has arrived.
    const bidder = await party();
    expect(await bid(bidder, piece, 101)).toMatchObject({ status: 409, body: { message: CLOSED } });

    const checkoutPath = new URL(relist.body.checkoutUrl).pathname;
    const cookie = ([] as string[])
      .concat(relist.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('knack_checkout_payer='))!
      .split(';')[0]!;
    const page = await request(app).get(checkoutPath).set('Cookie', cookie).expect(200);
    expect(page.text).toContain('$1.00');
    await request(app).post(checkoutPath).set('Cookie', cookie).type('form').send({ decision: 'approve' }).expect(303);
    const order = await request(app).get(`/api/v2/payments/orders/${relist.body.orderId}`).set(bearer(buyer.member)).expect(200);
    expect(order.body).toMatchObject({ status: 'paid', amountMicros: 1_000_000, message: 'Paid successfully' });
    const entry = (await LedgerEntryModel.findById(`relisting:${bidId}`).lean())!;
    expect(entry).toMatchObject({ kind: 'relisting', method: 'card', amountMicros: 1_000_000 });
    expect(entry.legs).toEqual([
      { account: 'external:payments', amountMicros: -1_000_000 },
      { account: 'platform:fees', amountMicros: 1_000_000 },
    ]);
    // The new owner's history shows the fee; no member's balance moved.
    const history = await request(app).get(`/api/v2/user-history/get-all/${buyer.member.id}`).set(bearer(buyer.member)).expect(200);
    expect(history.body.items).toContainEqual(
      expect.objectContaining({
        historyId: `relisting:${bidId}`,
        activityType: 'Paid0',
        activity: `You opened ${piece.title} to bids again`,
        changes: expect.objectContaining({ paid: 1 }),
      }),
    );
    expect(await balanceOf(userAccount(buyer.member.id))).toBe(0);
    expect((await bid(bidder, piece, 101)).status).toBe(201);
    expect((await list(piece)).body).toMatchObject({ closed: false, relistFee: null, highestPrice: 101 });
  });

  it('when a pending sale times out, then it goes back to open and the bidder can bid again; a party that did not sign releases it', async () => {
    const { seller, buyer, piece, bidId } = await pieceWithBid(25);
    const sale = (await post(seller.member, '/bid/sell', { bidId })).body.sale;
    // Other tests' sales may be pending too: this piece's sale is what is looked at.
    await services.bids.settlePending();
    expect(await BidSaleModel.countDocuments({ _id: piece.id })).toBe(1);
    expect((await services.bids.settlePending(new Date(Date.parse(sale.expiresAt) + 1000))).released).toBeGreaterThanOrEqual(1);
    expect(await BidSaleModel.countDocuments({ _id: piece.id })).toBe(0);
    expect((await list(piece)).body).toMatchObject({ pending: false, currentBidId: bidId });
    expect((await bid(buyer, piece, 26)).status).toBe(201);
    const again = (await list(piece)).body.currentBidId;
    expect((await post(seller.member, '/bid/sell', { bidId: again })).status).toBe(200);
    const other = await party();
    expect((await post(other.member, '/bid/approve', { bidId: again, succeed: false })).status).toBe(404);
    const released = await post(buyer.member, '/bid/approve', { bidId: again, succeed: false });
    expect(released.body.sale.status).toBe('released');
    expect((await list(piece)).body.pending).toBe(false);
  });

  it('when the owner sells, the bidder finds the sale in their inbox, and its links’ token acts on their bid only', async () => {
    const { seller, buyer, bidId, piece } = await pieceWithBid(25);
    await post(seller.member, '/bid/sell', { bidId });
    const inbox = await request(app).get(`/api/v2/message/by-receiverId/${buyer.member.id}`).set(bearer(buyer.member)).expect(200);
    const [thread] = inbox.body.threads;
    expect(thread).toMatchObject({ subject: 'Your bid was accepted', isRead: false });
    const opened = await request(app).get(`/api/v2/message/thread/${thread.id}`).set(bearer(buyer.member)).expect(200);
    const text: string = opened.body.messages[0].message;
    expect(text).toContain(`The owner of "${piece.title}" accepted your bid of 25.00 XLM.`);
    const approveLink = /http:\/\/knack\.test\/approve\?token=(\S+)/.exec(text);
    const cancelLink = /http:\/\/knack\.test\/cancel\?token=(\S+)/.exec(text);
    expect(approveLink?.[1]).toBe(cancelLink?.[1]);
    const token = decodeURIComponent(approveLink![1]!);
    // The link's token opens the sale to sign, for the bidder only.
    expect((await post(buyer.member, '/bid/approve', { token, succeed: true })).body.sale).toMatchObject({ bidId, status: 'pending' });
    expect((await post(seller.member, '/bid/cancel', { token, succeed: true })).status).toBe(404);
    expect((await post(buyer.member, '/bid/cancel', { token: `${token.slice(0, -2)}xx`, succeed: true })).status).toBe(404);
    const cancelled = await post(buyer.member, '/bid/cancel', { token, succeed: true });
    expect(cancelled.body.sale.status).toBe('released');
  });
});
