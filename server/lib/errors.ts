/**
 * The one error shape of the API: { message, code, errors?, requestId? } (openapi.yaml ErrorResponse).
 * Services throw AppError for business rules; the error handler maps everything else.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import { isDuplicateKey } from './duplicate-key';
import type { Logger } from './logger';

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, 'bad_request', message, errors);
export const notFound = (message: string) => new AppError(404, 'not_found', message);

/** How many seconds a client is told to wait (`Retry-After`) before trying again a call that met an outage. */
export const RETRY_AFTER_OUTAGE_SECONDS = 5;

/** 503 `unavailable` with `Retry-After`: something the call needs (the database, the file storage) is down for now. */
export class ServiceUnavailable extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds = RETRY_AFTER_OUTAGE_SECONDS,
  ) {
    super(503, 'unavailable', message);
    this.name = 'ServiceUnavailable';
  }
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Please try again in a few seconds.';

/**
 * What the MongoDB driver and mongoose throw when the database server cannot be reached: it is stopped,
 * restarting, or the network to it is down. The driver reconnects by itself once the server answers again, so
 * such a failure is passing: a 503 the client may retry, never a 500.
 */
const DATABASE_DOWN_ERRORS = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoPoolClosedError',
  'MongoServerClosedError',
  'MongoTopologyClosedError',
  'MongoClientClosedError',
  'MongoWaitQueueTimeoutError',
]);

/** Server error codes of a server shutting down or stepping down (ShutdownInProgress, InterruptedAtShutdown, NotWritablePrimary...). */
const DATABASE_DOWN_CODES = new Set([91, 189, 10107, 11600, 11602, 13435, 13436]);

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let current = err, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { name, code, message, cause } = current as { name?: string; code?: unknown; message?: string; cause?: unknown };
    if (name && DATABASE_DOWN_ERRORS.has(name)) return true;
    if (name === 'MongoServerError' && typeof code === 'number' && DATABASE_DOWN_CODES.has(code)) return true;
    // mongoose's own, when a call waited in its buffer for a connection that did not come back in time.
    if (name === 'MongooseError' && typeof message === 'string' && message.includes('buffering timed out')) return true;
    current = cause;
  }
  return false;
}

interface ValidatorError {
  status: number;
  message: string;
  errors?: { path: string; message: string }[];
}

const isValidatorError = (err: unknown): err is ValidatorError =>
  typeof err === 'object' && err !== null && typeof (err as ValidatorError).status === 'number' && Array.isArray((err as ValidatorError).errors);

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/** "/params/id" -> "id", "/body/user/email" -> "user.email": paths a person can read. */
function fieldPath(raw: string): string {
  return raw.replace(/^\/?(params|query|body|headers)\/?/, '').replace(/\//g, '.') || raw;
}

export function toAppError(err: unknown, req?: { method: string; originalUrl: string }): AppError | undefined {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) return new ServiceUnavailable(DATABASE_UNAVAILABLE_MESSAGE);
  if (isValidatorError(err) && err.status < 500) {
    const errors = (err.errors ?? []).map((e) => ({ path: fieldPath(e.path), message: e.message }));
    const code = STATUS_CODES[err.status] ?? 'bad_request';
    const message =
      err.status === 400 && errors[0]
        ? `${errors[0].path} ${errors[0].message}`
        : err.status === 404 && req
          ? `No API call ${req.method} ${req.originalUrl.split('?')[0]}`
          : err.message;
    return new AppError(err.status, code, message, err.status === 400 ? errors : undefined);
  }
  const e = err as { name?: string; code?: number; type?: string; status?: number; path?: string; keyValue?: object };
  if (e?.name === 'CastError') return badRequest(`Invalid value for ${e.path ?? 'a parameter'}`);
  if (e?.name === 'ValidationError') return badRequest((err as Error).message);
  if (isDuplicateKey(err)) return new AppError(409, 'conflict', 'That already exists.');
  if (e?.type === 'entity.parse.failed') return badRequest('The request body is not valid JSON.');
  if (e?.type === 'entity.too.large') return new AppError(413, 'payload_too_large', 'The request body is too large.');
  // http-errors from Express itself and serve-static (a missing file is 404, a bad range 416, ...)
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return new AppError(e.status, STATUS_CODES[e.status] ?? 'bad_request', (err as Error).message);
  }
  return undefined;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = toAppError(err, req);
    const requestId = req.id ?? '';
    if (!known) logger.error({ err, reqId: requestId }, 'unhandled error');
    else if (known instanceof ServiceUnavailable) logger.warn({ err, reqId: requestId }, 'answered 503: a service the call needs is unavailable');
    const status = known?.status ?? 500;
    if (res.headersSent) return;
    const retryAfter = (known as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    res.status(status).json({
      message: known?.message ?? 'Something went wrong on our side. Please try again.',
      code: known?.code ?? 'internal',
      ...(known?.errors?.length ? { errors: known.errors } : {}),
      ...(requestId ? { requestId } : {}),
    });
  };
}

/**
 * The app's final handler (lib/app-entry.ts), in place of Express's own, which answers an HTML page with the stack
 * trace (outside production). Something reaches it only by calling `next` after our error handler has run (a
 * third-party middleware calling `next(err)` from a hook on the response): the error shape there too, and no trace
 * of our files in any answer.
 */
export function answerLast(logger: Logger): (req: Request, res: Response) => (err?: unknown) => void {
  const answer = errorHandler(logger);
  return (req, res) => (err) => {
    // Half an answer already went out: all that is left is to cut it short, as Express would.
    if (res.headersSent) return void req.socket?.destroy();
    answer(err ?? notFound(`Nothing here: ${req.method} ${req.originalUrl.split('?')[0]}`), req, res, () => undefined);
  };
}
