import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../lib/storeHooks';
import { RouteErrorBoundary } from '../../components/errors';
import { PageLoading } from '../../components/PageLoading';
import { OrderReturn } from '../../features/payments';
import { InstagramReturn } from '../../features/share';
import { MessageCountsPoll } from '../../features/messages';
import { loadPlayerBar, selectHasTrack } from '../../features/player';
import { selectIsPhone, selectSideMenuOpen, sideMenuClosed } from '../../lib/ui';
import { Footer } from './Footer';
import { ModalHost } from './ModalHost';
import { SideMenu } from './SideMenu';
import { TopNav } from './TopNav';
import { useOpenedOnce } from './useOpenedOnce';
import { withAntd } from '../../components/antd/withAntd';
import './front.css';

const PhoneDrawer = lazy(withAntd(() => import('./PhoneDrawer')));

/** The phone drawer's code is loaded the first time it opens. */
function SideMenuDrawer() {
  const dispatch = useAppDispatch();
  const open = useAppSelector(selectSideMenuOpen);
  if (!useOpenedOnce(open)) return null;
  return (
    <Suspense fallback={null}>
      <PhoneDrawer open={open} onClose={() => dispatch(sideMenuClosed())} />
    </Suspense>
  );
}

const PlayerBar = lazy(withAntd(loadPlayerBar));

/** The bottom player bar: its code loads with the first song. */
function PlayerSlot({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <PlayerBar />
    </Suspense>
  );
}

/**
 * Front layout: top navigation, the slim side menu (a drawer on phones), the page inside a route
 * error boundary, the footer, the open modal and, once a song was chosen, the bottom player bar.
 */
export function FrontLayout() {
  const { pathname } = useLocation();
  const dispatch = useAppDispatch();
  // Phone layout (below 600 px or a phone user agent): no sidebar, a hamburger and a drawer.
  const isPhone = useAppSelector(selectIsPhone);
  const hasTrack = useAppSelector(selectHasTrack);
  // A new page starts at its top. The first page already does: scrolling there would make the browser lay out the
  // whole page at once, in the same task as the first effects, which a slow phone feels.
  const shownPath = useRef(pathname);
  useEffect(() => {
    dispatch(sideMenuClosed());
    if (shownPath.current !== pathname) window.scrollTo?.({ top: 0 });
    shownPath.current = pathname;
  }, [pathname, dispatch]);
  return (
    <div className={['kn-shell', isPhone ? 'kn-shell--phone' : '', hasTrack ? 'kn-shell--with-player' : ''].filter(Boolean).join(' ')}>
      <a className="kn-skip" href="#kn-main">
        Skip to content
      </a>
      <TopNav />
      <div className="kn-body">
        {isPhone ? null : (
          <nav className="kn-rail" aria-label="Side menu">
            <SideMenu variant="rail" />
          </nav>
        )}
        <main id="kn-main" className="kn-main" tabIndex={-1}>
          <RouteErrorBoundary resetKey={pathname}>
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </main>
      </div>
      <Footer />
      {isPhone ? <SideMenuDrawer /> : null}
      <ModalHost />
      <MessageCountsPoll />
      <OrderReturn />
      <InstagramReturn />
      <PlayerSlot show={hasTrack} />
    </div>
  );
}
