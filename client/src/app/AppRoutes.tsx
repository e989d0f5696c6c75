import { Navigate, Route, Routes } from 'react-router-dom';
import { FrontLayout } from '../layouts/front';
import { PageMetaSync } from './PageMetaSync';
import { FALLBACK_PATH, ROUTES } from './routes';

/** The router's element tree, built from the route table. */
export function AppRoutes() {
  return (
    <>
      <PageMetaSync />
      <Routes>
        <Route element={<FrontLayout />}>
          {ROUTES.map(({ name, path, Page }) => (
            <Route key={name} path={path} element={<Page />} />
          ))}
        </Route>
        <Route path="*" element={<Navigate to={FALLBACK_PATH} replace />} />
      </Routes>
    </>
  );
}
