/**
 * Factories for money tests: members (written to the database, signed in with a real access token), pieces,
 * and the ledger entries the real services post (listing and relisting fees and refunds as payments/listing.ts posts
 * them, knacks with knackLegs as knacks.service.ts does, a sale as the bids module settles one), each at a chosen
 * time so that history order is known.
 */
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import request from 'supertest';
import { signAccessToken } from '../../server/lib/access-token';
import { wordsOf } from '../../server/lib/search';
import { BidModel, noteBidOf } from '../../server/modules/bids/testing';
import { ContentModel, noteSupported, notePieceOwned } from '../../server/modules/contents';
import { knackLegs, post, userAccount, PLATFORM_KNACKS } from '../../server/modules/ledger';
import { UserExtModel, UserModel } from '../../server/modules/users';
import { testConfig } from './app';
import { png } from './media';

export interface TestMember {
  id: string;
  username: string;
  email: string;
  token: string;
}

export interface TestPiece {
  id: string;
  title: string;
  ownerId: string;
  payerId: string | null;
  knackRateMicros: number;
  type: 'music' | 'photos' | 'art';
}

/** The admin email of testConfig (ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'admin@knack.example';

export const bearer = (member: TestMember) => ({ Authorization: `Bearer ${member.token}` });

/** An active member written straight to the database, with a real access token; `paypal` sets the payout account. */
export async function createMember(options: { username?: string; email?: string; paypal?: string } = {}): Promise<TestMember> {
  const suffix = randomBytes(4).toString('hex');
  const username = options.username ?? `member_${suffix}`;
  const email = options.email ?? `${username}@example.com`;
  const user = await UserModel.create({ email, username, firstName: 'Test', lastName: 'Member', fullName: 'Test Member', isActive: true });
  if (options.paypal) await UserExtModel.create({ userId: user._id, paypal: options.paypal });
  const id = String(user._id);
  return { id, username, email, token: signAccessToken(testConfig().auth, { userId: id, tokenVersion: 0 }) };
}

/** The admin (the one configured admin email), made once per database. */
export async function adminMember(): Promise<TestMember> {
  const existing = await UserModel.findOne({ email: ADMIN_EMAIL }).lean();
  if (!existing) return createMember({ username: 'knack_admin', email: ADMIN_EMAIL });
  const id = String(existing._id);
  return { id, username: existing.username, email: ADMIN_EMAIL, token: signAccessToken(testConfig().auth, { userId: id, tokenVersion: 0 }) };
}

/** A published piece of `owner` (written directly: the money tests need no files). */
export async function createPiece(
  owner: TestMember,
  options: { title?: string; type?: TestPiece['type']; knackRateMicros?: number; subTag?: string; uploadedAt?: Date } = {},
): Promise<TestPiece> {
  const title = options.title ?? `Piece ${randomBytes(3).toString('hex')}`;
  const type = options.type ?? 'photos';
  const knackRateMicros = options.knackRateMicros ?? 50_000;
  const piece = await ContentModel.create({
    ownerId: new Types.ObjectId(owner.id),
    ownerUsername: owner.username,
    title,
    titleWords: wordsOf(title),
    slug: `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`,
    description: `About ${title}`,
    tags: [{ name: type === 'music' ? 'Music' : type === 'art' ? 'Art' : 'Photos' }],
    subTag: options.subTag ?? '',
    type,
    photoUploadId: new Types.ObjectId(),
    media: { photoKey: 'x.png', thumbKeys: {}, fileSize: 1, fileType: 'image/png' },
    knackRateMicros,
    listed: true,
    featureRank: Date.now(),
    ...(options.uploadedAt ? { uploadedAt: options.uploadedAt } : {}),
  });
  // On its owner's list and in the feeds before their next build, as a piece published through the app is.
  await notePieceOwned(piece);
  return { id: String(piece._id), title, ownerId: owner.id, payerId: null, knackRateMicros, type };
}

/** A fee `payer` paid by card for `piece`, as payments/listing.ts posts a listing or relisting fee: from the provider's payments to Knack's fees. */
const cardFee = (piece: TestPiece, payer: TestMember, feeMicros: number, at: Date) => ({
  at,
  actorId: new Types.ObjectId(payer.id),
  contentId: new Types.ObjectId(piece.id),
  method: 'card' as const,
  amountMicros: feeMicros,
  ref: `pay_${randomBytes(4).toString('hex')}`,
  legs: [
    { account: 'external:payments', amountMicros: -feeMicros },
    { account: 'platform:fees', amountMicros: feeMicros },
  ],
});

/** The listing fee `payer` paid by card for `piece` (ledger `listing:{contentId}`); the piece is then paid out by them. */
export async function payListing(piece: TestPiece, payer: TestMember, feeMicros = 650_000, at = new Date()): Promise<TestPiece> {
  await post({ _id: `listing:${piece.id}`, kind: 'listing', ...cardFee(piece, payer, feeMicros, at) });
  await noteSupported(new Types.ObjectId(piece.id), payer.id);
  await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(payer.id) } });
  return { ...piece, payerId: payer.id };
}

/** The relisting fee `payer` paid by card to open `piece` to bids again after the sale of `soldBidId` (ledger `relisting:{soldBidId}`). */
export async function payRelisting(piece: TestPiece, payer: TestMember, soldBidId: string, feeMicros = 600_000, at = new Date()) {
  const { entry } = await post({ _id: `relisting:${soldBidId}`, kind: 'relisting', ...cardFee(piece, payer, feeMicros, at) });
  return entry;
}

/** The refund of `payer`'s card payment of `amountMicros` for `piece`, which another payment had monetized first (ledger `refund:{orderId}`). */
export async function refundPayment(piece: TestPiece, payer: TestMember, amountMicros = 650_000, at = new Date()) {
  const { entry } = await post({
    _id: `refund:order_${randomBytes(6).toString('hex')}`,
    kind: 'refund',
    at,
    actorId: new Types.ObjectId(payer.id),
    contentId: new Types.ObjectId(piece.id),
    method: 'card',
    amountMicros,
    ref: `re_${randomBytes(4).toString('hex')}`,
    legs: [
      { account: 'external:payments', amountMicros: -amountMicros },
      { account: 'external:refunds', amountMicros },
    ],
  });
  return entry;
}

/** A made-up Stellar account address (the ledger only names it). */
const stellarAddress = () => `G${Array.from(randomBytes(55), (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[byte % 32]).join('')}`;

/**
 * `seller` sells `piece` to `buyer` for `priceStroops`, settled as the bids module settles a sale: the bid sold (naming
 * its seller), and the ledger entry `xlm:{hash}:0`, in stroops between the parties' Stellar accounts, its actor the buyer.
 */
export async function sellPiece(piece: TestPiece, seller: TestMember, buyer: TestMember, priceStroops: number, at = new Date()) {
  const bidId = `${piece.id}:${randomBytes(3).toString('hex')}`;
  const hash = randomBytes(32).toString('hex');
  await Promise.all([noteBidOf(buyer.id, bidId, at), noteBidOf(seller.id, bidId, at)]);
  await BidModel.create({
    _id: bidId,
    contentId: piece.id,
    biderId: buyer.id,
    priceStroops,
    unit: 'xlm',
    createdAt: at,
    sold: true,
    soldAt: at,
    sellerId: seller.id,
    transactionHash: hash,
  });
  const { entry } = await post({
    _id: `xlm:${hash}:0`,
    kind: 'sale',
    at,
    actorId: new Types.ObjectId(buyer.id),
    contentId: new Types.ObjectId(piece.id),
    legs: [
      { account: `stellar:${stellarAddress()}`, amountMicros: -priceStroops },
      { account: `stellar:${stellarAddress()}`, amountMicros: priceStroops },
    ],
    currency: 'XLM',
    ref: bidId,
  });
  return { entry, bidId };
}

/**
 * A knack of `viewer` on a paid-out piece, split as knack/add splits it (90% owner, 10% payer). `tagId` names the tag
 * that priced it, as knack/add's entries do (left out, the entry is as those made before knacks named their tag);
 * `embedHost` the site whose page framed the embeddable player it was made in.
 */
export async function knackBy(viewer: TestMember | string, piece: TestPiece, at = new Date(), tagId?: string, embedHost?: string) {
  const viewerId = typeof viewer === 'string' ? viewer : viewer.id;
  const { entry } = await post({
    _id: `knack:${piece.id}:${viewerId}`,
    kind: 'knack',
    at,
    actorId: new Types.ObjectId(viewerId),
    contentId: new Types.ObjectId(piece.id),
    legs: knackLegs(piece.payerId ? piece.knackRateMicros : 0, piece.ownerId, piece.payerId),
    ...(tagId ? { tagId: new Types.ObjectId(tagId) } : {}),
    ...(embedHost ? { embedHost } : {}),
  });
  return entry;
}

/** Gives `member` a balance of exactly `micros`: one knack worth that much on a piece of theirs they paid out themself. */
export async function credit(member: TestMember, micros: number, at = new Date()) {
  const piece = await createPiece(member, { title: `Earner ${randomBytes(3).toString('hex')}`, knackRateMicros: micros });
  const paid = { ...piece, payerId: member.id };
  await noteSupported(new Types.ObjectId(piece.id), member.id);
  await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(member.id) } });
  return knackBy(new Types.ObjectId().toHexString(), paid, at);
}

export { userAccount, PLATFORM_KNACKS };

/** Publishes a photo piece through the real calls of one app (a supertest app or a second process's URL): its cover is uploaded to that app, then the piece saved. */
export async function publishPhoto(through: Parameters<typeof request>[0], member: TestMember, title: string): Promise<{ id: string; title: string }> {
  const photo = await request(through)
    .post('/api/v2/content/upload-photo')
    .set(bearer(member))
    .attach('file', await png(32, 24), 'p.png')
    .expect(201);
  const saved = await request(through)
    .post('/api/v2/content/save')
    .set(bearer(member))
    .send({ title, description: `About ${title}`, tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: photo.body.path })
    .expect(201);
  return saved.body.content as { id: string; title: string };
}
