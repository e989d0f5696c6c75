/**
 * The API key gate: how a request with `Authorization: Bearer knk_…` comes in. It runs before every router (the
 * upload routers read their raw bodies before the contract validator does) and, for a key:
 *
 * 1. checks the key: unknown, revoked, or of an account that may not act now, 401;
 * 2. counts the request against the key's own limit, before any work, and says the key's budget on the answer,
 *    whatever it turns out to be (`RateLimit-Policy` and `RateLimit`, IETF draft-ietf-httpapi-ratelimit-headers);
 *    past the limit, 429 with Retry-After;
 * 3. lets the key make only the calls the contract marks for keys (`x-key-scopes`), and only with every scope named
 *    there: any other call, such as one that moves money or changes the account, 403 with what is missing. A new
 *    operation is thus closed to keys until it is marked. A path that is no call of the contract is a 404.
 *
 * The caller is then the key's member (`req.auth`, with `apiKey` set), as a member even when the member is an admin,
 * and the session check of the routes lets it through. After the contract validator, `confirmKeyCall` checks the
 * operation the validator matched against the same rule, so that no difference between the two matchers can open
 * a call to a key.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { apiKeyIn, type ApiKeyScope, type AuthContext } from '../../lib/auth-context';
import { operationFinder, type ContractOperation } from '../../lib/contract-routes';
import { AppError } from '../../lib/errors';
import { consumeLimit, secondsUntil, TooManyRequests, type Limit } from '../../lib/rate-limit';
import { API_KEY_MESSAGES, authenticateApiKey } from './api-keys.service';

/** The policy name the RateLimit headers give the key's quota. */
const POLICY = 'api-key';

/** Each key's limit: `requestsPerMinute` in fixed windows of a minute (AuthConfig.apiKeyRequestsPerMinute). */
export const apiKeyLimit = (requestsPerMinute: number): Limit => ({ max: requestsPerMinute, windowMs: 60_000 });

/** Refuses a key the call `operation` unless the contract marks it for keys and the key has every scope it names. */
export function requireKeyMayCall(caller: AuthContext, operation: ContractOperation): void {
  const needed = operation['x-key-scopes'];
  if (!needed?.length) {
    throw new AppError(
      403,
      'forbidden',
      `An API key cannot make this call (${operation.operationId}): it is for a signed-in member only. A key may make the calls whose x-key-scopes the contract lists.`,
    );
  }
  const missing = needed.filter((scope) => !caller.apiKey?.scopes.includes(scope as ApiKeyScope));
  if (missing.length) {
    throw new AppError(
      403,
      'forbidden',
      `This API key may not do this: the call ${operation.operationId} needs the scope ${missing.join(' and ')}, which the key was not given. Make a key with it in your settings.`,
    );
  }
}

function tellBudget(res: Response, limit: Limit, remaining: number, secondsLeft: number): void {
  res.setHeader('RateLimit-Policy', `"${POLICY}";q=${limit.max};w=${limit.windowMs / 1000}`);
  res.setHeader('RateLimit', `"${POLICY}";r=${Math.max(0, remaining)};t=${secondsLeft}`);
}

/** The gate, mounted on the API's base path before every router; `contractFile` is the contract whose marks it reads. */
export function apiKeyGate(contractFile: string, limit: Limit): RequestHandler {
  const operationOf = operationFinder(contractFile);
  return async (req: Request, res: Response, next: NextFunction) => {
    const secret = apiKeyIn(req.headers.authorization);
    if (!secret) return next();
    const now = new Date();
    const caller = await authenticateApiKey(secret, now);
    try {
      const hit = await consumeLimit(`api-key:${caller.apiKey!.id}`, limit, API_KEY_MESSAGES.tooManyRequests, now);
      tellBudget(res, limit, limit.max - hit.slot, secondsUntil(hit.resetAt, now));
    } catch (err) {
      if (err instanceof TooManyRequests) tellBudget(res, limit, 0, err.retryAfterSeconds);
      throw err;
    }
    const operation = operationOf(req.method, req.baseUrl + req.path);
    if (!operation) throw new AppError(404, 'not_found', `No API call ${req.method} ${req.originalUrl.split('?')[0]}`);
    requireKeyMayCall(caller, operation);
    req.auth = caller;
    next();
  };
}

/** What the contract validator leaves on a request it matched. */
type Matched = Request & { openapi?: { schema?: ContractOperation } };

/** After the contract validator: the operation it matched is checked for a key caller by the same rule. */
export const confirmKeyCall: RequestHandler = (req, _res, next) => {
  const operation = (req as Matched).openapi?.schema;
  if (req.auth?.apiKey && operation) requireKeyMayCall(req.auth, operation);
  next();
};
