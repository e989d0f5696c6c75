/**
 * Security headers (helmet) for every response, except that the embeddable player page may be framed by any
 * site (the Embed link of the share modal): there `frame-ancestors *` and no X-Frame-Options. The SPA stays
 * unframeable.
 *
 * The player page is also the small window a player opens to borrow the member's Knack session (a frame on another
 * site cannot read Knack's storage or send its cookies): that window hands the session back to the player that opened
 * it, which needs the opener kept, so the page is served without Cross-Origin-Opener-Policy's `same-origin` (which
 * would cut a window opened from another site's page off from it). The window posts only to a Knack page.
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export const EMBED_PAGE = '/music-player.html';

type Directives = Record<string, Iterable<string> | null>;

export function securityHeaders(directives: Directives): RequestHandler {
  const site = helmet({ contentSecurityPolicy: { directives } });
  const embed = helmet({
    contentSecurityPolicy: { directives: { ...directives, frameAncestors: ['*'] } },
    frameguard: false,
    crossOriginOpenerPolicy: { policy: 'unsafe-none' },
  });
  return (req, res, next) => (req.path === EMBED_PAGE ? embed : site)(req, res, next);
}
