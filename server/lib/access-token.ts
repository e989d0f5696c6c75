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
