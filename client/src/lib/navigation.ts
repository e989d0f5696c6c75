/**
 * Navigation for code outside React (sagas): the router lends its `navigate` and current path through
 * <NavigationBridge /> (rendered inside the router by AppRoutes). A request made before the router first
 * mounts waits for it; once the app has unmounted, requests are dropped.
 */
import { useEffect } from 'react';
import { useLocation, useNavigate, type NavigateOptions } from 'react-router-dom';

type Navigate = (to: string, options?: NavigateOptions) => void;

let navigator: Navigate | null = null;
/** A request made before the router first mounted (a saga at start): applied when the bridge registers. */
let pending: Parameters<Navigate> | null = null;
let mountedOnce = false;
let pathname = typeof window === 'undefined' ? '/' : window.location.pathname;

export function navigateTo(to: string, options?: NavigateOptions): void {
  if (navigator) navigator(to, options);
  else if (!mountedOnce) pending = [to, options];
}

/** The router's current path. */
export function currentPath(): string {
  return pathname;
}

export function NavigationBridge(): null {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    pathname = location.pathname;
  }, [location.pathname]);
  useEffect(() => {
    const own: Navigate = (to, options) => {
      pathname = to.split(/[?#]/)[0] || pathname;
      void navigate(to, options);
    };
    navigator = own;
    mountedOnce = true;
    if (pending) {
      const [to, options] = pending;
      pending = null;
      own(to, options);
    }
    return () => {
      if (navigator === own) navigator = null;
    };
  }, [navigate]);
  return null;
}
