/**
 * The route table of spec §2, declared in one place. Only screens that are built are listed (no
 * placeholder pages); every other path redirects home (spec §2). Later issues add their screens here.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import { withChunkReload } from '../components/errors/chunkReload';
import type { MetaPage } from '../features/cms';
import { loadAuthRoutePage, loadConfirmPage } from '../features/auth';
import { loadHomePage } from '../features/home';

export interface AppRoute {
  /** The route name of spec §2 (home, pricing, explore, …). */
  name: string;
  path: string;
  /** The CMS page whose metadata the route shows (spec §7); 'meta' is the site-wide default. */
  metaPage: MetaPage;
  /** Reachable without a stored account (spec §6 route guard). */
  guest: boolean;
  /** The page, a lazy chunk; a stale chunk reloads the page once per 60 s (spec §8). */
  Page: LazyExoticComponent<ComponentType>;
  /** Starts downloading the page's chunk (used to preload the landing route). */
  preload: () => Promise<unknown>;
}

function route(definition: Omit<AppRoute, 'Page' | 'preload'> & { load: () => Promise<{ default: ComponentType }> }): AppRoute {
  const { load, ...rest } = definition;
  let pending: Promise<{ default: ComponentType }> | undefined;
  const loadOnce = withChunkReload(() => (pending ??= load().catch((error: unknown) => {
    pending = undefined; // a failed load can be retried
    throw error;
  })));
  return { ...rest, Page: lazy(loadOnce), preload: loadOnce };
}

/**
 * Spec §6: without a stored account only the routes with these names pass; the others redirect to '/'.
 * A route's `guest` flag says it is one of them ('confirm' and 'auth' are added: the activation and reset
 * links are opened by people who are not signed in).
 */
export const GUEST_ROUTE_NAMES: readonly string[] = [
  'index', 'home', 'become', 'become-kind', 'earning', 'userProfile', 'playlist', '{name}Top50', '{hash}', 'explore',
  'exploreTag', 'viewAll', 'viewall-kind', 'pricing', 'blog-type', 'username', 'admin pass', 'confirm', 'auth',
];

export const ROUTES: readonly AppRoute[] = [
  route({ name: 'home', path: '/', metaPage: 'home', guest: true, load: loadHomePage }),
  route({ name: 'confirm', path: '/confirm', metaPage: 'meta', guest: true, load: loadConfirmPage }),
  route({ name: 'auth', path: '/auth/:type?', metaPage: 'meta', guest: true, load: loadAuthRoutePage }),
];

/** Where unmatched paths go (spec §2). */
export const FALLBACK_PATH = '/';

export function findRoute(pathname: string): AppRoute | undefined {
  return ROUTES.find((candidate) => matchPath({ path: candidate.path, end: true }, pathname));
}

/** Preloads the page of `pathname`, if it is a known route (called before the first render). */
export function preloadRoute(pathname: string): void {
  void findRoute(pathname)?.preload().catch(() => undefined);
}
