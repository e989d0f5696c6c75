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
