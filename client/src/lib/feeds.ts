/** The ranked feeds of GET /content/get-by-kind/{kind}: their names, the Explore tabs and page size. */
import type { components } from '../../../generated/openapi';

/** A ranked feed of GET /content/get-by-kind/{kind}. */
export type FeedKind = components['schemas']['FeedKind'];

/** The Explore tabs, in the order they show; Featured is the default. */
export const EXPLORE_TABS: readonly { kind: FeedKind; label: string }[] = [
  { kind: 'popular', label: 'Popular' },
  { kind: 'featured', label: 'Featured' },
  { kind: 'trending', label: 'Trending' },
  { kind: 'radar', label: 'On the Radar' },
];

export const DEFAULT_TAB: FeedKind = 'featured';

/** Every feed kind with its name (the tabs, and `new` which only /viewall shows). */
export const FEED_KIND_LABELS: Record<FeedKind, string> = {
  popular: 'Popular',
  featured: 'Featured',
  trending: 'Trending',
  radar: 'On the Radar',
  new: 'New',
};

export function isFeedKind(value: string | null | undefined): value is FeedKind {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(FEED_KIND_LABELS, value);
}

/** The tab a `?tab=` value names; anything else is the default (Featured). */
export function tabFromQuery(value: string | null): FeedKind {
  return EXPLORE_TABS.some((tab) => tab.kind === value) ? (value as FeedKind) : DEFAULT_TAB;
}

/** How many pieces one page asks for (the contract allows up to 50). */
export const FEED_PAGE_SIZE = 24;

const NOTHING: Record<FeedKind, string> = {
  popular: 'Nothing popular',
  featured: 'Nothing featured',
  trending: 'Nothing trending',
  radar: 'Nothing on the radar',
  new: 'Nothing new',
};

/** What an empty feed says: "Nothing trending under Rock from this artist yet." */
export function emptyFeedMessage(kind: FeedKind, tagName?: string, oneArtist = false): string {
  return `${NOTHING[kind]}${tagName ? ` under ${tagName}` : ''}${oneArtist ? ' from this artist' : ''} yet.`;
}
