import { Navigate, Route, Routes } from 'react-router-dom';
import { FrontLayout } from '../layouts/front';
import { NavigationBridge } from './navigation';
import { PageMetaSync } from './PageMetaSync';
import { RouteGuard } from './RouteGuard';
import { FALLBACK_PATH, ROUTES, type AppRoute } from './routes';

/** The router's element tree, built from the route table; each page behind the guard of spec §6. */
export function AppRoutes({ routes = ROUTES }: { routes?: readonly AppRoute[] }) {
  return (
    <>
      <NavigationBridge />
      <PageMetaSync />
      <Routes>
        <Route element={<FrontLayout />}>
          {routes.map(({ name, path, guest, Page }) => (
            <Route
              key={name}
              path={path}
              element={
                <RouteGuard guest={guest}>
                  <Page />
                </RouteGuard>
              }
            />
          ))}
        </Route>
        <Route path="*" element={<Navigate to={FALLBACK_PATH} replace />} />
      </Routes>
    </>
  );
}
