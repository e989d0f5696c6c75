/** Refresh sessions (rotating cookie) and one-time emailed tokens; access tokens are lib/access-token.ts. */
import { createHash, randomBytes } from 'node:crypto';
import mongoose, { Types } from 'mongoose';
import type { AuthConfig } from '../../config';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../lib/mutex';
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

/** A new emailed one-time token; `email` is the new address an email change's links are for. */
export async function createOneTimeToken(userId: Types.ObjectId, purpose: TokenPurpose, ttlMs: number, email: string | null = null): Promise<string> {
  const token = randomToken();
  await OneTimeTokenModel.create({ _id: sha256(token), userId, purpose, email, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/** Spends a one-time token and answers it, or undefined when unknown, of another purpose, spent or expired. */
export async function spendOneTimeToken(token: string, purpose: TokenPurpose): Promise<OneTimeTokenDoc | undefined> {
  const id = sha256(token);
  const found = await OneTimeTokenModel.findById(id).lean<OneTimeTokenDoc>();
  if (!found || found.purpose !== purpose || found.usedAt || found.expiresAt <= new Date()) return undefined;
  return (await spend(`token:${id}`, found.expiresAt)) ? found : undefined;
}

/** Spends a one-time token and answers its user id, or undefined when unknown, of another purpose, spent or expired. */
export async function consumeOneTimeToken(token: string, purpose: TokenPurpose): Promise<Types.ObjectId | undefined> {
  return (await spendOneTimeToken(token, purpose))?.userId;
}

/** Ends the account's emailed links of one purpose that are still waiting to be used. */
export async function revokeOneTimeTokensFor(userId: Types.ObjectId, purpose: TokenPurpose): Promise<void> {
  await OneTimeTokenModel.deleteMany({ userId, purpose });
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
