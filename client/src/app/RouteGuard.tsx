import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { selectHasAccount } from '../features/auth';
import { useAppSelector } from './hooks';
import { FALLBACK_PATH } from './routes';

/** Route guard: a route not open to guests redirects to '/' when no account is stored. */
export function RouteGuard({ guest, children }: { guest: boolean; children: ReactNode }) {
  const hasAccount = useAppSelector(selectHasAccount);
  if (!guest && !hasAccount) return <Navigate to={FALLBACK_PATH} replace />;
  return children;
}
