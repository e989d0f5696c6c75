/**
 * The session check: bearer-token guards for the routes that need (or may have) a signed-in member. They live with
 * the accounts they read, so that every module, auth included, takes them from here.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Types } from 'mongoose';
import type { AuthConfig } from '../../config';
import { AppError } from '../../lib/errors';
import { MESSAGES } from '../../../generated/validation';
import { verifyAccessToken } from '../../lib/access-token';
import { readByIdShared } from '../../lib/query';
import { UserModel } from './users.model';
import { roleOf } from './users.mapper';

/** What the session check reads of the member. */
type SessionHolder = { email: string; isActive: boolean; tokenVersion: number; deactivatedAt?: Date | null };

/**
 * The account `userId` when it may act now: it exists, is active and is not deactivated by an admin; null otherwise.
 * Every signed-in request makes this read, so it goes straight to the driver, and a member's requests that arrive
 * together share one (lib/query.ts): a revocation landing during that read applies from the next request.
 */
export async function memberWhoMayAct(userId: string): Promise<SessionHolder | null> {
  if (!Types.ObjectId.isValid(userId)) return null;
  const user = await readByIdShared<SessionHolder>(UserModel, new Types.ObjectId(userId), { email: 1, isActive: 1, tokenVersion: 1, deactivatedAt: 1 });
  return user && user.isActive && !user.deactivatedAt ? user : null;
}

/**
 * Verifies the access token, then checks the account still exists, is active, is not deactivated by an admin, and
 * has not revoked the token (password change, reset or logout-all bump the token version). A request the API key
 * gate let in (modules/api-keys: a key allowed this very call) is already its member's.
 */
export function requireAuth(config: AuthConfig): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    if (req.auth?.apiKey) return next();
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw new AppError(401, 'unauthorized', 'Please log in.');
    const claims = verifyAccessToken(config, token);
    const user = await memberWhoMayAct(claims.userId);
    if (!user || user.tokenVersion !== claims.tokenVersion) throw new AppError(401, 'unauthorized', MESSAGES.sessionExpired);
    req.auth = { userId: claims.userId, email: user.email, role: roleOf(config.adminEmails, user.email) };
    next();
  };
}

/**
 * Like requireAuth when a token is sent; lets anonymous callers through otherwise (`req.auth` unset).
 *
 * A token that is sent and refused (garbage, tampered, expired, revoked by logout-all, or not a Bearer token at
 * all) is a 401 on these calls too, never a silent downgrade to a visitor (RFC 6750): the caller learns at once
 * that its session is gone, instead of seeing a member's page without the member's pieces. The SPA renews the
 * token on a 401 and, when the renewal fails too, repeats the call without a token, so a member whose session
 * ended keeps browsing as a visitor.
 */
export function optionalAuth(config: AuthConfig): RequestHandler {
  const required = requireAuth(config);
  return (req, res, next) => (req.headers.authorization ? required(req, res, next) : next());
}
