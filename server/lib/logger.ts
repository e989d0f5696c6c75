import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout; secrets that may pass through headers are redacted. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'knack' },
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
  });
}
