/**
 * Access tokens: short-lived JWTs (HS256 only) naming the member and their token version. Signed at sign-in and
 * renewal, verified by the session check of every signed-in request.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Types } from 'mongoose';
import type { AuthConfig } from '../config';
import { MESSAGES } from '../../generated/validation';
import { AppError } from './errors';

const ALGORITHM = 'HS256';

export interface AccessClaims {
  userId: string;
  tokenVersion: number;
}

const refused = (message: string) => new AppError(401, 'unauthorized', message);

/**
 * Why a token is refused, in words that say what to do: an expired token (the usual case, renewed by the refresh
 * cookie) is told apart from one that cannot be read at all (cut short, or not a token: a client sending the wrong
 * value) and from one that reads but was not signed here for this app (another server's, altered, `alg: none`).
 */
function refusalOf(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof jwt.TokenExpiredError) return refused(MESSAGES.sessionExpired);
  const unreadable = err instanceof jwt.JsonWebTokenError && ['jwt malformed', 'invalid token', 'jwt must be provided'].includes(err.message);
  return refused(unreadable ? MESSAGES.tokenUnreadable : MESSAGES.tokenNotOurs);
}

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

/** Verifies signature (HS256 only: `alg: none` and others are refused), issuer, audience and expiry; 401 with the reason. */
export function verifyAccessToken(config: AuthConfig, token: string): AccessClaims {
  try {
    const payload = jwt.verify(token, keyOf(config.keys.accessTokens), {
      algorithms: [ALGORITHM],
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
    });
    if (typeof payload === 'string' || !payload.sub || !Types.ObjectId.isValid(payload.sub) || typeof payload.ver !== 'number') {
      throw refused(MESSAGES.tokenNotOurs);
    }
    return { userId: payload.sub, tokenVersion: payload.ver };
  } catch (err) {
    throw refusalOf(err);
  }
}
