/**
 * Guards around the contract validator (express-openapi-validator), for what it lets through or answers badly
 * (an answer that breaks the contract, numbers in the query string written in ways no client writes), and for
 * what it spends on every request.
 */
import type { Request, RequestHandler } from 'express';
import { AppError, errorHandler } from './errors';
import type { Logger } from './logger';

/**
 * Called by the validator's response check when an answer does not match the contract (a status the call does not
 * declare, a body of the wrong shape). That is our bug, never the caller's: it is logged with what broke, and the
 * caller gets the usual JSON 500. Left to itself, the validator hands the error to Express's own last handler,
 * which answers an HTML page with the stack trace.
 */
export function answerContractBreach(logger: Logger) {
  const answer = errorHandler(logger);
  return (err: Error, _body: unknown, req: Request): void => {
    const res = req.res!;
    const breach = new Error(`The answer ${res.statusCode} to ${req.method} ${req.originalUrl.split('?')[0]} breaks the contract: ${err.message}`);
    answer(breach, req, res, () => undefined);
  };
}

/** Plain decimal digits, as every client writes a number in a URL. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Runs after the validator. It turns query values into numbers where the contract says so, but its number parsing
 * also takes `Infinity`, `1e309`, `0x10` and ` 5` - and an infinite value then skips the minimum and maximum
 * checks, so `limit=Infinity` passed `maximum: 50`. A value it made a number must have been written in digits.
 */
export const strictQueryNumbers: RequestHandler = (req, _res, next) => {
  let raw: URLSearchParams | undefined;
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (typeof value !== 'number') continue;
    raw ??= new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const written = raw.get(name);
    // Not in the URL: the contract's default, filled in by the validator.
    if (written === null) continue;
    if (!DECIMAL.test(written) || !Number.isFinite(value)) {
      const message = 'must be a number written in plain digits';
      throw new AppError(400, 'bad_request', `${name} ${message}`, [{ path: name, message }]);
    }
  }
  next();
};
