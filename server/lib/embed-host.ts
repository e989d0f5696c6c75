/**
 * The site that framed the embeddable player, by which a member's plays and earnings are counted (a blog that embeds a
 * song sees what it brought). The player tells the address of the page around it (its `document.referrer`); only its
 * host is kept, reduced to the registrable domain by the public-suffix list, so `blog.fans.example` and
 * `www.fans.example` are one site, `fans.co.uk` is not lumped with every `.co.uk`, and each `name.github.io` (a
 * private suffix on the list) is a site of its own. Nothing else of the address (path, query) is ever stored.
 */
import { parse } from 'tldts';

/** Longer than any address a browser gives as a referrer is refused outright (the contract says the same). */
const MAX_REFERRER_LENGTH = 2048;

/**
 * The site of a host name: its registrable domain, else the host itself when it is an IP address or `localhost` (a
 * page served from a machine, as in development); null for a name that is no site (a single-label intranet name, a
 * bare public suffix, something that is not a host name).
 */
export function siteOfHost(hostname: string): string | null {
  const host = hostname.toLowerCase();
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isIp) return host;
  if (host === 'localhost') return host;
  return parsed.domain;
}

/**
 * The site to count an embed play or knack under: the registrable domain of the framing page's http(s) address, or
 * null for Knack itself (no address given, one that is not an http(s) address with a host name, or one on the same
 * site as `ownHost`, the host the request reached: the share modal's preview, a link opened directly).
 */
export function embedHostOf(referrer: string | undefined, ownHost: string): string | null {
  if (!referrer || referrer.length > MAX_REFERRER_LENGTH || !URL.canParse(referrer)) return null;
  const url = new URL(referrer);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const site = siteOfHost(url.hostname);
  return site && site !== siteOfHost(ownHost) ? site : null;
}
