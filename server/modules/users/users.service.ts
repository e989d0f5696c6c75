import { Types } from 'mongoose';
import { notFound } from '../../lib/errors';
import { inTurn } from '../../lib/in-turn';
import { withLock } from '../../lib/mutex';
import { ours } from '../../lib/query';
import { wordsOf } from '../../lib/search';
import { UserExtModel, UserModel, type UserDoc, type UserExtDoc } from './users.model';

/** Usernames are trimmed, lower-cased, with spaces as underscores. */
export function normalizeUsername(raw: string): string {
  return raw.trim().toLowerCase().replace(/\s+/g, '_');
}

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export async function findUserByEmail(email: string): Promise<UserDoc | null> {
  return UserModel.findOne({ email: normalizeEmail(email) }).lean<UserDoc>();
}

export async function emailExists(email: string): Promise<boolean> {
  return (await UserModel.exists({ email: normalizeEmail(email) })) !== null;
}

export async function usernameTaken(username: string): Promise<boolean> {
  return (await UserModel.exists({ username: normalizeUsername(username) })) !== null;
}

export async function getUser(id: string): Promise<UserDoc> {
  const user = await UserModel.findById(id).lean<UserDoc>();
  if (!user) throw notFound('User not found');
  return user;
}

export async function getUserExt(userId: string): Promise<UserExtDoc | null> {
  return UserExtModel.findOne({ userId }).lean<UserExtDoc>();
}

/**
 * Moves a member's count of listed pieces by `delta` (publishing, hiding, deleting). A kept total: the rankings
 * job recounts it from the listed pieces, should a bump be lost.
 */
export async function adjustContentsCount(ownerId: Types.ObjectId | string, delta: number): Promise<void> {
  await inTurn(`user:${ownerId}`, () => UserModel.updateOne({ _id: ownerId }, { $inc: { contentsCount: delta } }));
}

/** A plan's listing credits, one field per listing tier: a credit pays one listing fee of its tier. */
export type CreditTier = 'standard' | 'premium';
const CREDIT_FIELD = { standard: 'sCredit', premium: 'pCredit' } as const;
const CREDIT_LOCK = { busyMessage: 'Another payment of yours is in progress. Please try again.' };

/** The member's credits of the tier (0 without a user extension). */
export async function planCreditsLeft(userId: string, tier: CreditTier): Promise<number> {
  const ext = await UserExtModel.findOne({ userId: new Types.ObjectId(userId) }, { [CREDIT_FIELD[tier]]: 1 }).lean();
  return ext?.[CREDIT_FIELD[tier]] ?? 0;
}

/**
 * Uses one credit of the tier, never going below 0; false when there is none. Exact because of the lock
 * (lib/mutex.ts says why); the user extension's `_id` is not the user id, so this finds it by `userId`.
 */
export function takePlanCredit(userId: string, tier: CreditTier): Promise<boolean> {
  const field = CREDIT_FIELD[tier];
  return withLock(
    `credit:${userId}`,
    async () => {
      const taken = await UserExtModel.findOneAndUpdate(ours({ userId: new Types.ObjectId(userId), [field]: { $gt: 0 } }), { $inc: { [field]: -1 } }).lean();
      return Boolean(taken);
    },
    CREDIT_LOCK,
  );
}

/** Gives back a credit taken for a payment that did not happen. */
export function givePlanCreditBack(userId: string, tier: CreditTier): Promise<void> {
  return withLock(
    `credit:${userId}`,
    async () => {
      await UserExtModel.updateOne({ userId: new Types.ObjectId(userId) }, { $inc: { [CREDIT_FIELD[tier]]: 1 } });
    },
    CREDIT_LOCK,
  );
}

/** Where the member's payouts go (their PayPal email), or null. */
export async function payoutEmailOf(userId: string): Promise<string | null> {
  const ext = await UserExtModel.findOne({ userId: new Types.ObjectId(userId) }, { paypal: 1 }).lean();
  return ext?.paypal || null;
}

/** Sets where the member's payouts go; with `onlyIf`, only while it is still that address (undoing a change). */
export async function setPayoutEmail(userId: string, email: string | null, onlyIf?: string): Promise<void> {
  const memberId = new Types.ObjectId(userId);
  if (onlyIf === undefined) await UserExtModel.updateOne({ userId: memberId }, { $set: { paypal: email } }, { upsert: true });
  else await UserExtModel.updateOne({ userId: memberId, paypal: onlyIf }, { $set: { paypal: email } });
}

/** A member's kept totals that the rankings job recounts from the facts. */
export type MemberTotals = Partial<Pick<UserDoc, 'trendScore' | 'contentsCount' | 'followersCount' | 'followingsCount'>>;

/** Sets recounted totals, one member each (the rankings job and the start-up migration). */
export async function setMemberTotals(changes: { userId: Types.ObjectId | string; totals: MemberTotals }[]): Promise<void> {
  if (!changes.length) return;
  await UserModel.bulkWrite(
    changes.map(({ userId, totals }) => ({ updateOne: { filter: { _id: new Types.ObjectId(String(userId)) }, update: { $set: totals } } })),
    { ordered: false },
  );
}

/** Sets members' kept follow totals, as counted from the follows (the follows module, after each change). */
export async function setFollowTotals(changes: ({ userId: Types.ObjectId } & Partial<Pick<UserDoc, 'followersCount' | 'followingsCount'>>)[]): Promise<void> {
  await UserModel.bulkWrite(
    changes.map(({ userId, ...totals }) => ({ updateOne: { filter: { _id: userId }, update: { $set: totals } } })),
    { ordered: false },
  );
}

/** Gives accounts written before search words existed their words (run at start, once per such account). */
export async function backfillSearchWords(): Promise<void> {
  const unsearchable = await UserModel.find(ours({ searchWords: { $exists: false } }), { username: 1, fullName: 1 }).lean();
  for (const user of unsearchable) await UserModel.updateOne({ _id: user._id }, { $set: { searchWords: wordsOf(user.username, user.fullName) } });
}
