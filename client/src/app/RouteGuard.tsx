import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { selectHasAccount, selectIsAdmin } from '../features/auth';
import { useAppSelector } from '../lib/storeHooks';
import { FALLBACK_PATH } from './routes';

/**
 * Route guard: a route not open to guests redirects to '/' when no account is stored, and an admins' route
 * redirects every other member there too (the server refuses them its calls anyway).
 */
export function RouteGuard({ guest, admin = false, children }: { guest: boolean; admin?: boolean; children: ReactNode }) {
  const hasAccount = useAppSelector(selectHasAccount);
  const isAdmin = useAppSelector(selectIsAdmin);
  if ((!guest && !hasAccount) || (admin && !isAdmin)) return <Navigate to={FALLBACK_PATH} replace />;
  return children;
}
