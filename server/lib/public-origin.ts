/**
 * Links that send a member's browser back to the site (a checkout's return and the sandbox's checkout page) go
 * to the origin the member is using, so that the cookies of that origin come along: a member on
 * http://127.0.0.1:3000 sent to http://localhost:3000 arrives without them. Only the configured public origins
 * are used this way (PUBLIC_URL, PUBLIC_ORIGINS, and in development localhost and 127.0.0.1 of the port); any
 * other origin gets PUBLIC_URL, or a forged Host header would make us send members to someone else's site.
 */
import type { Request } from 'express';

export interface PublicSite {
  /** PUBLIC_URL: where links go when the request's origin is not one of ours. */
  publicUrl: string;
  /** The origins links may go back to (config.publicOrigins); by default PUBLIC_URL's alone. */
  publicOrigins?: string[];
}

/**
 * The origin the request came from: what the browser says in Origin (sent with every POST), else the scheme and
 * host it reached us at (behind trusted proxies, what they forwarded).
 */
export function requestOrigin(req: Request): string | undefined {
  const origin = req.get('origin');
  if (origin && origin !== 'null') return origin;
  const host = req.host;
  return host ? `${req.protocol}://${host}` : undefined;
}

/** The base of links back to the site for a member who came from `origin`: that origin when it is ours, else PUBLIC_URL. */
export function siteUrlFor(site: PublicSite, origin: string | undefined): string {
  const allowed = site.publicOrigins ?? [new URL(site.publicUrl).origin];
  const normalized = origin && URL.canParse(origin) ? new URL(origin).origin : undefined;
  if (!normalized || !allowed.includes(normalized)) return site.publicUrl;
  // PUBLIC_URL may carry a path prefix that a proxy maps to the app; the other origins are served the same way.
  const { pathname } = new URL(site.publicUrl);
  return `${normalized}${pathname.replace(/\/+$/, '')}`;
}
