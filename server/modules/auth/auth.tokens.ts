/** Access tokens (JWT), refresh sessions (rotating cookie) and one-time emailed tokens. */
import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import mongoose, { Types } from 'mongoose';
import type { AuthConfig } from '../../config';
import { AppError } from '../../lib/errors';
import { MESSAGES } from './auth.rules';
import { OneTimeTokenModel, SessionModel, type SessionDoc } from './auth.model';

const ALGORITHM = 'HS256';

export interface AccessClaims {
  userId: string;
  tokenVersion: number;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');
const unauthorized = () => new AppError(401, 'unauthorized', MESSAGES.sessionExpired);

/** The HS256 key, made once per secret: given a string, jsonwebtoken first tries it as a PEM key (about 1 ms a call). */
const keys = new Map<string, KeyObject>();
const keyOf = (secret: string) => keys.get(secret) ?? keys.set(secret, createSecretKey(Buffer.from(secret))).get(secret)!;

export function signAccessToken(config: AuthConfig, claims: AccessClaims): string {
  return jwt.sign({ ver: claims.tokenVersion }, keyOf(config.keys.accessTokens), {
    algorithm: ALGORITHM,
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    subject: claims.userId,
    expiresIn: config.accessTokenTtlSeconds,
  });
}

/** Verifies signature (HS256 only: `alg: none` and others are refused), issuer, audience and expiry. */
export function verifyAccessToken(config: AuthConfig, token: string): AccessClaims {
  try {
    const payload = jwt.verify(token, keyOf(config.keys.accessTokens), {
      algorithms: [ALGORITHM],
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
    });
    if (typeof payload === 'string' || !payload.sub || !Types.ObjectId.isValid(payload.sub) || typeof payload.ver !== 'number') {
      throw unauthorized();
    }
    return { userId: payload.sub, tokenVersion: payload.ver };
  } catch {
    throw unauthorized();
  }
}

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
 * Uses a refresh token once. Answers its session, or throws 401. Presenting a token that was already
 * used revokes every session of its family (a stolen token was replayed).
 */
export async function consumeSession(token: string): Promise<SessionDoc> {
  const id = sha256(token);
  const now = new Date();
  const session = await SessionModel.findOneAndUpdate({ _id: id, usedAt: null }, { $set: { usedAt: now } }, { new: false }).lean<SessionDoc>();
  if (!session) {
    const replayed = await SessionModel.findById(id, { familyId: 1 }).lean<Pick<SessionDoc, 'familyId'>>();
    if (replayed) await SessionModel.deleteMany({ familyId: replayed.familyId });
    throw unauthorized();
  }
  if (session.expiresAt <= now) throw unauthorized();
  return session;
}

export async function revokeSession(token: string): Promise<void> {
  await SessionModel.deleteOne({ _id: sha256(token) });
}

export async function revokeAllSessions(userId: Types.ObjectId | string): Promise<void> {
  await SessionModel.deleteMany({ userId });
}

export async function createOneTimeToken(userId: Types.ObjectId, purpose: 'activate' | 'reset', ttlMs: number): Promise<string> {
  const token = randomToken();
  await OneTimeTokenModel.create({ _id: sha256(token), userId, purpose, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/** Marks a one-time token used and answers its user id, or undefined when unknown, used or expired. */
export async function consumeOneTimeToken(token: string, purpose: 'activate' | 'reset'): Promise<Types.ObjectId | undefined> {
  const now = new Date();
  const found = await OneTimeTokenModel.findOneAndUpdate(
    { _id: sha256(token), purpose, usedAt: null, expiresAt: mongoose.trusted({ $gt: now }) },
    { $set: { usedAt: now } },
  ).lean();
  return found?.userId;
}

/** Spends every emailed link of the account that is still waiting to be used (activation and reset). */
export async function revokeOneTimeTokens(userId: Types.ObjectId | string): Promise<void> {
  await OneTimeTokenModel.deleteMany({ userId });
}
