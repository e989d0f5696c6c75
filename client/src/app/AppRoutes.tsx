import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { detailBackground, DetailUrlSync } from '../features/content-detail';
import { FrontLayout } from '../layouts/front';
import { NavigationBridge } from '../lib/navigation';
import { useFirstPaintHandOff, useLatestFirstPaintHandOff } from './firstPaint';
import { PageMetaSync } from './PageMetaSync';
import { RouteGuard } from './RouteGuard';
import { PageLoading } from '../components/PageLoading';
import { FALLBACK_PATH, REDIRECTS, ROUTES, type AppRoute } from './routes';

/** Rendered beside the page, so in its Suspense boundary: it mounts once the page's chunk has loaded. */
function FirstPaintHandOff() {
  useFirstPaintHandOff();
  return null;
}

function GuardedPage({ route }: { route: AppRoute }) {
  const { guest, admin, Page } = route;
  return (
    <RouteGuard guest={guest} admin={admin}>
      <Page />
      <FirstPaintHandOff />
    </RouteGuard>
  );
}

/** Routes sharing one pattern: the first that accepts the path shows it; a path none accepts goes home. */
function SharedPattern({ routes }: { routes: readonly AppRoute[] }) {
  const { pathname } = useLocation();
  const chosen = routes.find((candidate) => candidate.accepts?.(pathname) ?? true);
  // No key: routes with the same page (a profile, a share link over it) keep it mounted from one to the other.
  return chosen ? <GuardedPage route={chosen} /> : <Navigate to={FALLBACK_PATH} replace />;
}

function patternElement(group: readonly AppRoute[]) {
  const [only] = group;
  return only && group.length === 1 && !only.accepts ? <GuardedPage route={only} /> : <SharedPattern routes={group} />;
}

/** The routes grouped by path pattern, in table order. */
function byPattern(routes: readonly AppRoute[]): [string, AppRoute[]][] {
  const groups = new Map<string, AppRoute[]>();
  for (const candidate of routes) groups.set(candidate.path, [...(groups.get(candidate.path) ?? []), candidate]);
  return [...groups];
}

/**
 * The router's element tree, built from the route table; each page behind the route guard (RouteGuard), inside the
 * front layout, or as a layout of its own (the admin area's back layout). While
 * the content detail modal has pushed a piece's link, the page it was opened over stays rendered beneath it.
 */
export function AppRoutes({ routes = ROUTES }: { routes?: readonly AppRoute[] }) {
  const location = useLocation();
  useLatestFirstPaintHandOff();
  return (
    <>
      <NavigationBridge />
      <PageMetaSync />
      <DetailUrlSync />
      <Routes location={detailBackground(location) ?? location}>
        <Route element={<FrontLayout />}>
          {byPattern(routes.filter((candidate) => !candidate.layout)).map(([path, group]) => (
            <Route key={path} path={path} element={patternElement(group)} />
          ))}
        </Route>
        {routes
          .filter((candidate) => candidate.layout === 'back')
          .map((candidate) => (
            <Route
              key={candidate.path}
              path={candidate.path}
              element={
                <Suspense fallback={<PageLoading />}>
                  <GuardedPage route={candidate} />
                </Suspense>
              }
            />
          ))}
        {REDIRECTS.map(({ from, to }) => (
          <Route key={from} path={from} element={<Navigate to={to} replace />} />
        ))}
        <Route path="*" element={<Navigate to={FALLBACK_PATH} replace />} />
      </Routes>
    </>
  );
}
