/**
 * Security headers (helmet) for every response, except that the embeddable player page may be framed by any
 * site (the Embed link of the share modal): there `frame-ancestors *` and no X-Frame-Options. The SPA stays
 * unframeable.
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export const EMBED_PAGE = '/music-player.html';

type Directives = Record<string, Iterable<string> | null>;

export function securityHeaders(directives: Directives): RequestHandler {
  const site = helmet({ contentSecurityPolicy: { directives } });
  const embed = helmet({ contentSecurityPolicy: { directives: { ...directives, frameAncestors: ['*'] } }, frameguard: false });
  return (req, res, next) => (req.path === EMBED_PAGE ? embed : site)(req, res, next);
}
