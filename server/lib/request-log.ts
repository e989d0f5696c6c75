/**
 * Each request's id (the caller's sane X-Request-Id, else a new UUID, echoed back) and one access-log line when it
 * is done: its id, method, URL, status and time taken.
 *
 * In place of pino-http, which built a child logger holding the whole serialized request (every header, with the
 * secret ones redacted) for every request, before knowing whether anything would be logged: a sixth of the CPU of
 * a cheap call, even with logging off. The line here holds no headers, so it has no secrets to redact, and it is
 * only built when the info level is on.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from './logger';
import { requestIdOf } from './request-id';

declare module 'node:http' {
  interface IncomingMessage {
    /** Set by requestLog: the id the answer carries as X-Request-Id, and its log lines. */
    id?: string;
  }
}

/** The access-log line of an answered request. */
export function logAnswered(logger: Logger, req: IncomingMessage, id: string, statusCode: number, more: Record<string, unknown>): void {
  logger.info({ req: { id, method: req.method, url: req.url }, res: { statusCode }, ...more }, 'request completed');
}

export function requestLog(logger: Logger, { ignore }: { ignore: (url: string) => boolean }): RequestHandler {
  return (req, res, next) => {
    const id = requestIdOf(req);
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (logger.isLevelEnabled('info') && !ignore(req.url)) {
      const started = performance.now();
      // 'close' comes once a response is done, or when the caller went away before it was.
      res.once('close', () => {
        const responseTime = Math.round(performance.now() - started);
        logAnswered(logger, req, id, res.statusCode, res.writableFinished ? { responseTime } : { responseTime, aborted: true });
      });
    }
    next();
  };
}
