/**
 * The route table, declared in one place. Only screens that are built are listed (no
 * placeholder pages); every other path redirects home. Later issues add their screens here.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import { withChunkReload } from '../components/errors/chunkReload';
import { withAntd } from '../components/antd/withAntd';
import { loadBecomePage, loadBlogPage, loadEarningPage, loadUserGuidePage, type MetaPage } from '../features/cms';
import { loadAuthRoutePage, loadConfirmPage } from '../features/auth';
import { loadExplorePage, loadSearchPage, loadViewAllPage } from '../features/explore';
import { loadHomePage } from '../features/home';
import { loadOwnProfilePage, loadProfilePage, loadTop50Page } from '../features/profile';
import { parsePath, SEGMENT_PATH } from '../lib/links';
import { loadActivityHistoryPage, loadWalletPage } from '../features/wallet';
import { loadSettingsPage } from '../features/settings';
import { loadPricingPage } from '../features/subscriptions';
import { loadReturnLinkPage } from '../features/bids';
import { loadAnalyticsPage } from '../features/analytics';
import { loadBackLayout } from '../layouts/back';
import { loadInboxPage } from '../features/messages';
import { loadNftPage } from '../features/nft';
import { loadVerifyProofPage } from '../features/verify';

export interface AppRoute {
  /** The route's name (home, pricing, explore, …); the guest list matches on it. */
  name: string;
  path: string;
  /**
   * The CMS page whose metadata the route shows; 'meta' is the site-wide default. `null`: the page applies metadata
   * of its own (a blog post's title and excerpt), and no CMS page's may overwrite it.
   */
  metaPage: MetaPage | null;
  /** Reachable without a stored account (the route guard lets it pass). */
  guest: boolean;
  /** Only for admins: the route guard sends every other member, and visitors, home. */
  admin?: boolean;
  /**
   * 'back': the page is a layout of its own (the admin area's back layout, which draws its sections), shown instead of
   * the front layout; by default the page shows inside the front layout.
   */
  layout?: 'back';
  /**
   * Routes sharing one path pattern (the single-segment screens: profile, share link, Top 50) tell apart the
   * paths they take; the first route whose pattern matches and which accepts the path shows it.
   */
  accepts?: (pathname: string) => boolean;
  /** The page, a lazy chunk; a stale chunk reloads the page at most once per 60 s. */
  Page: LazyExoticComponent<ComponentType>;
  /** Starts downloading the page's chunk (used to preload the landing route). */
  preload: () => Promise<unknown>;
}

type PageLoader = () => Promise<{ default: ComponentType }>;

/** One lazy page per loader: routes sharing a page (profile and share link) keep it mounted between them. */
const pages = new Map<PageLoader, Pick<AppRoute, 'Page' | 'preload'>>();

function lazyPage(load: PageLoader, antd: boolean): Pick<AppRoute, 'Page' | 'preload'> {
  const known = pages.get(load);
  if (known) return known;
  const loadPage = antd ? withAntd(load) : load;
  let pending: Promise<{ default: ComponentType }> | undefined;
  const loadOnce = withChunkReload(
    () =>
      (pending ??= loadPage().catch((error: unknown) => {
        pending = undefined; // a failed load can be retried
        throw error;
      })),
  );
  const page = { Page: lazy(loadOnce), preload: loadOnce };
  pages.set(load, page);
  return page;
}

/**
 * A route of the table. Its page comes inside antd's themed provider (withAntd), unless `antd: false`: the pages
 * most visits start on (home, Explore, View all, search) draw with our own buttons and tabs, so that they load no
 * antd.
 */
function route(definition: Omit<AppRoute, 'Page' | 'preload'> & { load: PageLoader; antd?: false }): AppRoute {
  const { load, antd = true, ...rest } = definition;
  return { ...rest, ...lazyPage(load, antd) };
}

/**
 * Without a stored account only the routes with these names pass; the others redirect to '/'.
 * A route's `guest` flag says it is one of them ('confirm' and 'auth' are added: the activation and reset
 * links are opened by people who are not signed in).
 */
export const GUEST_ROUTE_NAMES: readonly string[] = [
  'index',
  'home',
  'become',
  'become-kind',
  'earning',
  'userProfile',
  'playlist',
  '{name}Top50',
  '{hash}',
  'explore',
  'exploreTag',
  'viewAll',
  'viewall-kind',
  'pricing',
  'nft',
  'verify',
  'blog',
  'blog-type',
  // The User Guide is linked from the footer every visitor sees: it is public reading, like How It Works.
  'user-guide',
  'username',
  'admin pass',
  'confirm',
  'auth',
];

/**
 * The single-segment screens (Top 50, share link, public profile), told apart by the segment's shape (see
 * lib/links.ts).
 */
const segmentIs = (kind: 'top50' | 'content' | 'profile') => (pathname: string) => parsePath(pathname)?.kind === kind;

/**
 * Fixed paths are listed first; the router ranks a static segment above a dynamic one anyway, so `/explore`
 * or `/profile` never reach the `/:segment` screens. The own profile (`userProfile`: default = own
 * uploads, supported = collection) needs a stored account, unlike the rest of the guest list.
 */
export const ROUTES: readonly AppRoute[] = [
  route({ name: 'home', path: '/', metaPage: 'home', guest: true, load: loadHomePage, antd: false }),
  route({ name: 'confirm', path: '/confirm', metaPage: 'meta', guest: true, load: loadConfirmPage }),
  route({ name: 'auth', path: '/auth/:type?', metaPage: 'meta', guest: true, load: loadAuthRoutePage }),
  route({ name: 'explore', path: '/explore', metaPage: 'explore', guest: true, load: loadExplorePage, antd: false }),
  route({ name: 'exploreTag', path: '/explore/:tag', metaPage: 'explore', guest: true, load: loadExplorePage, antd: false }),
  route({ name: 'viewAll', path: '/viewall/:kind', metaPage: 'explore', guest: true, load: loadViewAllPage, antd: false }),
  route({ name: 'viewall-kind', path: '/viewall/:kind/:sub', metaPage: 'explore', guest: true, load: loadViewAllPage, antd: false }),
  route({ name: 'search', path: '/search/:slug?', metaPage: 'explore', guest: false, load: loadSearchPage, antd: false }),
  route({ name: 'userProfile', path: '/profile/:kind?', metaPage: 'meta', guest: false, load: loadOwnProfilePage }),
  route({ name: 'wallet', path: '/wallet', metaPage: 'meta', guest: false, load: loadWalletPage }),
  route({ name: 'inbox', path: '/inbox', metaPage: 'meta', guest: false, load: loadInboxPage }),
  route({ name: 'activity-history', path: '/activity-history', metaPage: 'meta', guest: false, load: loadActivityHistoryPage }),
  route({ name: 'user-setting', path: '/user-setting', metaPage: 'meta', guest: false, load: loadSettingsPage }),
  route({ name: 'pricing', path: '/pricing', metaPage: 'meta', guest: true, load: loadPricingPage }),
  // The content pages and the blog draw with our own elements: a visitor arriving on one loads no antd.
  route({ name: 'become', path: '/become', metaPage: 'become', guest: true, load: loadBecomePage, antd: false }),
  route({ name: 'become-kind', path: '/become/:kind', metaPage: 'become', guest: true, load: loadBecomePage, antd: false }),
  route({ name: 'earning', path: '/earning/:kind?', metaPage: 'earn', guest: true, load: loadEarningPage, antd: false }),
  route({ name: 'user-guide', path: '/user-guide/:tag?', metaPage: 'guide', guest: true, load: loadUserGuidePage, antd: false }),
  route({ name: 'blog', path: '/blog', metaPage: 'blog', guest: true, load: loadBlogPage, antd: false }),
  route({ name: 'blog-type', path: '/blog/:type', metaPage: null, guest: true, load: loadBlogPage, antd: false }),
  route({ name: 'nft', path: '/nft', metaPage: 'meta', guest: true, load: loadNftPage }),
  route({ name: 'verify', path: '/verify', metaPage: 'meta', guest: true, load: loadVerifyProofPage }),
  route({ name: 'approve', path: '/approve', metaPage: 'meta', guest: false, load: loadReturnLinkPage }),
  route({ name: 'cancel', path: '/cancel', metaPage: 'meta', guest: false, load: loadReturnLinkPage }),
  route({ name: 'analytics', path: '/analytics', metaPage: 'meta', guest: false, load: loadAnalyticsPage }),
  // The admin area: the back layout and its sections (features/admin/admin.sections.tsx), one lazy chunk each.
  route({ name: 'admin', path: '/admin/:section?', metaPage: 'meta', guest: false, admin: true, layout: 'back', load: loadBackLayout }),
  route({ name: '{name}Top50', path: SEGMENT_PATH, accepts: segmentIs('top50'), metaPage: 'meta', guest: true, load: loadTop50Page }),
  route({ name: '{hash}', path: SEGMENT_PATH, accepts: segmentIs('content'), metaPage: 'meta', guest: true, load: loadProfilePage, antd: false }),
  route({ name: 'username', path: SEGMENT_PATH, accepts: segmentIs('profile'), metaPage: 'meta', guest: true, load: loadProfilePage, antd: false }),
];

/** Paths the spec names that show a screen found at another path now: each redirects there. */
export const REDIRECTS: readonly { from: string; to: string }[] = [
  // The spec's (misspelled) path of the discount codes, now a section of the admin area.
  { from: '/creat-discount-code', to: '/admin/discount-codes' },
];

/** Where unmatched paths go: home. */
export const FALLBACK_PATH = '/';

export function findRoute(pathname: string): AppRoute | undefined {
  return ROUTES.find((candidate) => matchPath({ path: candidate.path, end: true }, pathname) && (candidate.accepts?.(pathname) ?? true));
}

/** Preloads the page of `pathname`, if it is a known route (called before the first render). */
export function preloadRoute(pathname: string): void {
  void findRoute(pathname)
    ?.preload()
    .catch(() => undefined);
}
