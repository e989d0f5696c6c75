/** Refresh sessions (rotating cookie) and one-time emailed tokens; access tokens are lib/access-token.ts. */
import { createHash, randomBytes } from 'node:crypto';
import mongoose, { Types } from 'mongoose';
import type { AuthConfig } from '../../config';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { anyOf } from '../../lib/query';
import { MESSAGES } from './auth.rules';
import { OneTimeTokenModel, SessionModel, SpentTokenModel, type OneTimeTokenDoc, type SessionDoc } from './auth.model';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');
const unauthorized = () => new AppError(401, 'unauthorized', MESSAGES.sessionExpired);

export async function createSession(config: AuthConfig, userId: Types.ObjectId, tokenVersion: number, familyId?: string): Promise<string> {
  const token = randomToken();
  await SessionModel.create({
    _id: sha256(token),
    userId,
    tokenVersion,
    familyId: familyId ?? randomToken(),
    expiresAt: new Date(Date.now() + config.refreshTokenTtlDays * 86_400_000),
  });
  return token;
}

/**
 * Spends `key` once: true for the one caller whose insert made the claim, false for every other (the key was
 * spent already, perhaps a moment ago by a concurrent request in another process).
 */
async function spend(key: string, expiresAt: Date): Promise<boolean> {
  try {
    await SpentTokenModel.create({ _id: key, at: new Date(), expiresAt });
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/**
 * Revokes a sign-in chain: its sessions are deleted, and the family is marked revoked so that a session the
 * chain is given in the same moment (by the request that rotated the token first) cannot be refreshed either.
 * The mark lasts as long as a session made now would.
 */
async function revokeFamily(session: SessionDoc): Promise<void> {
  const lifetimeMs = session.expiresAt.getTime() - session.createdAt.getTime();
  await spend(`family:${session.familyId}`, new Date(Date.now() + lifetimeMs));
  await SessionModel.deleteMany({ familyId: session.familyId });
}

/**
 * Uses a refresh token once. Answers its session, or throws 401. Presenting a token that was already
 * used revokes every session of its family (a stolen token was replayed). Of concurrent uses of one token,
 * one gets the session and the others count as replays.
 */
export async function consumeSession(token: string): Promise<SessionDoc> {
  const id = sha256(token);
  const session = await SessionModel.findById(id).lean<SessionDoc>();
  if (!session || session.expiresAt <= new Date()) throw unauthorized();
  // Looked up before spending: a family revoked after this moment still lets the first user of the token
  // through, so that one of several concurrent uses always succeeds.
  if (await SpentTokenModel.exists({ _id: `family:${session.familyId}` })) {
    // A session given to the chain while it was being revoked: it goes too.
    await SessionModel.deleteOne({ _id: id });
    throw unauthorized();
  }
  if (session.usedAt || !(await spend(`session:${id}`, session.expiresAt))) {
    await revokeFamily(session);
    throw unauthorized();
  }
  return session;
}

export async function revokeSession(token: string): Promise<void> {
  await SessionModel.deleteOne({ _id: sha256(token) });
}

export async function revokeAllSessions(userId: Types.ObjectId | string): Promise<void> {
  await SessionModel.deleteMany({ userId });
}

export type TokenPurpose = OneTimeTokenDoc['purpose'];

/** What an email change's links carry: the new address, and for the cancel link the address it was mailed to. */
export interface EmailChangeLinkFields {
  email?: string;
  previousEmail?: string;
}

/** A new emailed one-time token. */
export async function createOneTimeToken(userId: Types.ObjectId, purpose: TokenPurpose, ttlMs: number, fields: EmailChangeLinkFields = {}): Promise<string> {
  const token = randomToken();
  const now = Date.now();
  await OneTimeTokenModel.create({
    _id: sha256(token),
    userId,
    purpose,
    email: fields.email ?? null,
    previousEmail: fields.previousEmail ?? null,
    createdAt: new Date(now),
    expiresAt: new Date(now + ttlMs),
  });
  return token;
}

/** Spends a one-time token and answers it, or undefined when unknown, of another purpose, spent or expired. */
export async function spendOneTimeToken(token: string, purpose: TokenPurpose): Promise<OneTimeTokenDoc | undefined> {
  const id = sha256(token);
  const found = await OneTimeTokenModel.findById(id).lean<OneTimeTokenDoc>();
  if (!found || found.purpose !== purpose || found.usedAt || found.expiresAt <= new Date()) return undefined;
  return (await spend(`token:${id}`, found.expiresAt)) ? found : undefined;
}

/** A one-time token that could be spent now, without spending it (a form checks the link before its other rules). */
export async function usableOneTimeToken(token: string, purpose: TokenPurpose): Promise<OneTimeTokenDoc | undefined> {
  const found = await OneTimeTokenModel.findById(sha256(token)).lean<OneTimeTokenDoc>();
  if (!found || found.purpose !== purpose || found.usedAt || found.expiresAt <= new Date()) return undefined;
  return (await SpentTokenModel.exists({ _id: `token:${found._id}` })) ? undefined : found;
}

/** Gives back a token spent by a request that then could not do its work (the link works again). */
export async function giveBackOneTimeToken(token: string): Promise<void> {
  await SpentTokenModel.deleteOne({ _id: `token:${sha256(token)}` });
}

/** Spends a one-time token and answers its user id, or undefined when unknown, of another purpose, spent or expired. */
export async function consumeOneTimeToken(token: string, purpose: TokenPurpose): Promise<Types.ObjectId | undefined> {
  return (await spendOneTimeToken(token, purpose))?.userId;
}

/*
 * Which emailed links each event ends:
 * - a password change or reset, logging out everywhere, and an email change made: every link still waiting that
 *   acts on the account as it is (activation, password reset, the confirm link of an email change). A reset link
 *   mailed to an address the account no longer has, or an email change asked for by whoever held a session, then
 *   cannot undo what the member just did.
 * - none of these ends a cancel link of an email change. Each one is its former address's way back into the
 *   account for 7 days after the change: whoever took the account by changing its email would otherwise end it by
 *   changing the password or the email once more.
 * - a cancel link opened: every link, except the cancel links made before it. Those were mailed to addresses the
 *   account had earlier, before the person now shut out could have had it; the later ones went to addresses that
 *   person may hold, and would let them take the account back again.
 * - the account taken over by a social sign-in before it was ever activated, or deleted: every link.
 */

/** Ends the links still waiting that act on the account as it is: activation, password reset, email change. */
export async function revokeWaitingLinks(userId: Types.ObjectId | string): Promise<void> {
  await OneTimeTokenModel.deleteMany({ userId, purpose: anyOf(['activate', 'reset', 'email-change']) });
}

/** Ends every link of the account but the cancel links made before `since` (a cancel link was opened). */
export async function revokeLinksButEarlierCancels(userId: Types.ObjectId, since: Date): Promise<void> {
  const links = await OneTimeTokenModel.find({ userId }, { purpose: 1, createdAt: 1 }).lean<Pick<OneTimeTokenDoc, '_id' | 'purpose' | 'createdAt'>[]>();
  const ending = links.filter((link) => link.purpose !== 'email-cancel' || !link.createdAt || link.createdAt >= since).map((link) => link._id);
  if (ending.length) await OneTimeTokenModel.deleteMany({ _id: anyOf(ending) });
}

/**
 * Makes the cancel links of the email change from `previousEmail` to `email` work until `until` (the change is made);
 * without `previousEmail`, those of every change to `email`.
 */
export async function extendCancelLinks(userId: Types.ObjectId, change: { email: string; previousEmail?: string }, until: Date): Promise<void> {
  await OneTimeTokenModel.updateMany({ userId, purpose: 'email-cancel', ...change }, { $set: { expiresAt: until } });
}

/**
 * Whether `email` may still go back to a member other than `userId` through a cancel link of theirs: it was their
 * email before a change, and the link mailed to it can still be used. Nobody else may take such an address.
 */
export async function emailHeldForCancel(email: string, userId?: Types.ObjectId): Promise<boolean> {
  const links = await OneTimeTokenModel.find({ previousEmail: email, purpose: 'email-cancel' }, { userId: 1, expiresAt: 1 }).lean<
    Pick<OneTimeTokenDoc, 'userId' | 'expiresAt'>[]
  >();
  const now = new Date();
  return links.some((link) => link.expiresAt > now && !(userId && link.userId.equals(userId)));
}

/** Spends every emailed link of the account that is still waiting to be used (activation, reset, email change). */
export async function revokeOneTimeTokens(userId: Types.ObjectId | string): Promise<void> {
  await OneTimeTokenModel.deleteMany({ userId });
}

/** Ends every session of the account and spends its emailed links: the account is being deleted. */
export async function endEverySessionOf(userId: Types.ObjectId | string): Promise<void> {
  await Promise.all([revokeAllSessions(userId), revokeOneTimeTokens(userId)]);
}

/** Removes the spent marks whose tokens have expired: nothing can present those tokens any more. */
export async function purgeSpentTokens(now = new Date()): Promise<number> {
  const { deletedCount } = await SpentTokenModel.deleteMany({ expiresAt: mongoose.trusted({ $lte: now }) });
  return deletedCount;
}
