/**
 * Guards around the contract validator (express-openapi-validator), for what it lets through or answers badly
 * (an answer that breaks the contract, numbers in the query string written in ways no client writes), and for
 * what it spends on every request.
 */
import { createRequire } from 'node:module';
import type { Request, RequestHandler } from 'express';
import type { pathToRegexp } from 'path-to-regexp';
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

/**
 * The validator finds a request's operation by compiling every route's path pattern again, on every request, until
 * one matches (express-openapi-validator 5.6; a fix is proposed upstream as cdimascio/express-openapi-validator#1217).
 * With some 80 operations that was a fifth of the CPU of a busy API process. The patterns are the contract's, few
 * and fixed, and a compiled pattern is a pure function of the pattern and its options, so each is compiled once.
 * Called once, before the validator is built.
 */
export function compileRoutePatternsOnce(): void {
  // The module's own exports object (an import would give a copy), through which the validator calls the function.
  const exported = createRequire(__filename)('path-to-regexp') as { pathToRegexp: PathToRegexp };
  if (exported.pathToRegexp === compiledOnce) return;
  original = exported.pathToRegexp;
  exported.pathToRegexp = compiledOnce;
}

type PathToRegexp = typeof pathToRegexp;
let original: PathToRegexp;
const compiledPatterns = new Map<string, ReturnType<PathToRegexp>>();
/** More distinct patterns than any contract has: past it, patterns are compiled as before rather than kept. */
const PATTERNS_KEPT = 2_000;

const compiledOnce: PathToRegexp = (path, options) => {
  if (typeof path !== 'string') return original(path, options);
  // The validator passes only the flags `sensitive` and `strict`, on every route of every request: those make a
  // short key; any other options are spelled out whole.
  const flags = (options ?? {}) as Record<string, unknown>;
  const flagsOnly = Object.keys(flags).every((name) => name === 'sensitive' || name === 'strict');
  const key = flagsOnly ? `${flags.sensitive ? 's' : '-'}${flags.strict ? 't' : '-'}${path}` : JSON.stringify([path, flags]);
  const kept = compiledPatterns.get(key);
  if (kept) return kept;
  const made = original(path, options);
  // The patterns have no global flag, so one compiled expression serves every request.
  if (compiledPatterns.size < PATTERNS_KEPT) compiledPatterns.set(key, made);
  return made;
};
