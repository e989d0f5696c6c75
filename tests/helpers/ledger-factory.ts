/**
 * Factories for money tests: members (written to the database, signed in with a real access token), pieces,
 * and the ledger entries the real services post (listing fees as payments/listing.ts posts them, knacks with
 * knackLegs as knacks.service.ts does), each at a chosen time so that history order is known.
 */
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { signAccessToken } from '../../server/lib/access-token';
import { wordsOf } from '../../server/lib/search';
import { ContentModel } from '../../server/modules/contents';
import { knackLegs, post, userAccount, PLATFORM_KNACKS } from '../../server/modules/ledger';
import { UserExtModel, UserModel } from '../../server/modules/users';
import { testConfig } from './app';

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
  return { id: String(piece._id), title, ownerId: owner.id, payerId: null, knackRateMicros, type };
}

/** The listing fee `payer` paid by card for `piece` (ledger `listing:{contentId}`); the piece is then paid out by them. */
export async function payListing(piece: TestPiece, payer: TestMember, feeMicros = 650_000, at = new Date()): Promise<TestPiece> {
  await post({
    _id: `listing:${piece.id}`,
    kind: 'listing',
    at,
    actorId: new Types.ObjectId(payer.id),
    contentId: new Types.ObjectId(piece.id),
    method: 'card',
    amountMicros: feeMicros,
    ref: `pay_${randomBytes(4).toString('hex')}`,
    legs: [
      { account: 'external:payments', amountMicros: -feeMicros },
      { account: 'platform:fees', amountMicros: feeMicros },
    ],
  });
  await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(payer.id) } });
  return { ...piece, payerId: payer.id };
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
  await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(member.id) } });
  return knackBy(new Types.ObjectId().toHexString(), paid, at);
}

export { userAccount, PLATFORM_KNACKS };
