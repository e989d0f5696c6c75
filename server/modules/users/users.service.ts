import { Types } from 'mongoose';
import { notFound } from '../../lib/errors';
import { inTurn } from '../../lib/in-turn';
import { ours } from '../../lib/query';
import { wordsOf } from '../../lib/search';
import { UserModel, type UserDoc, type UserExtDoc } from './users.model';
import { changeNameTerms } from './users.name-index';
import { membersWithUsernameStart } from './users.search';
import { usernameHeldByAnother } from './users.identity';
import { extensionOf, memberByKey } from './users.keys';

/** Usernames are trimmed, lower-cased, with spaces as underscores. */
export function normalizeUsername(raw: string): string {
  return raw.trim().toLowerCase().replace(/\s+/g, '_');
}

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** The account of an email address, read by its key (users.keys.ts). */
export async function findUserByEmail(email: string): Promise<UserDoc | null> {
  return memberByKey('email', normalizeEmail(email));
}

/**
 * Whether an account one signs in to uses the address. An account waiting since a Top 50 upload does not count: it
 * has no password, and the sign-up with its address mails its registration link again.
 */
export async function emailExists(email: string): Promise<boolean> {
  const user = await findUserByEmail(email);
  return user !== null && !user.awaitsRegistration;
}

/** Whether a member has the username, or gave it up (a former name stays its member's: users.identity.ts). */
export async function usernameTaken(username: string): Promise<boolean> {
  return usernameHeldByAnother(normalizeUsername(username));
}

export async function getUser(id: string): Promise<UserDoc> {
  const user = await UserModel.findById(id).lean<UserDoc>();
  if (!user) throw notFound('User not found');
  return user;
}

/** A member as a recipient list shows them: what their public profile shows, no more. */
export type MemberMatch = Pick<UserDoc, '_id' | 'username' | 'fullName' | 'image'>;

/**
 * At most `limit` members who can receive messages (activated accounts) whose username starts with `typed`, as
 * usernames are kept (lower-cased, spaces as underscores), the caller left out, in username order. A closed
 * account is inactive and nameless, so it is never among them. Read through the name index (users.search.ts):
 * when more than its 100 members per prefix share the start typed, the newest of them are the ones ordered.
 */
export async function membersByUsernameStart(typed: string, callerId: string, limit: number): Promise<MemberMatch[]> {
  const start = normalizeUsername(typed);
  if (!start) return [];
  const found = await membersWithUsernameStart<MemberMatch & Pick<UserDoc, 'isActive'>>(start, { fullName: 1, image: 1, isActive: 1 });
  return found
    .filter((member) => member.isActive && String(member._id) !== callerId)
    .sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0))
    .slice(0, limit)
    .map(({ _id, username, fullName, image }) => ({ _id, username, fullName, image }));
}

export async function getUserExt(userId: string): Promise<UserExtDoc | null> {
  return extensionOf(userId);
}

/**
 * Moves a member's count of listed pieces by `delta` (publishing, hiding, deleting). A kept total: the rankings
 * job recounts it from the listed pieces, should a bump be lost.
 */
export async function adjustContentsCount(ownerId: Types.ObjectId | string, delta: number): Promise<void> {
  await inTurn(`user:${ownerId}`, () => UserModel.updateOne({ _id: ownerId }, { $inc: { contentsCount: delta } }));
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
  for (const user of unsearchable) {
    const searchWords = wordsOf(user.username, user.fullName);
    await changeNameTerms(user._id, {}, { username: user.username, searchWords }, () => UserModel.updateOne({ _id: user._id }, { $set: { searchWords } }));
  }
}

/** Whether the database holds any account at all (a start on an empty database; one read, stopped at the first). */
export async function anyMemberExists(): Promise<boolean> {
  return Boolean(await UserModel.exists({}));
}
