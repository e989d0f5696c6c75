import { NavLink } from 'react-router-dom';
import { Button } from '../../components/button';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import MenuOutlined from '@ant-design/icons/es/icons/MenuOutlined';
import { BREAKPOINTS, PATHS } from '../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../lib/storeHooks';
import { Logo } from '../../components/Logo';
import { logoutRequested, selectIsLoggedIn } from '../../features/auth';
import { SearchBox } from '../../features/explore';
import { UnreadBadge } from '../../features/messages';
import { modalOpened, selectIsPhone, selectViewportWidth, sideMenuOpened } from '../../lib/ui';
import { ProfileSummaryButton } from './ProfileSummaryButton';

const linkClass = ({ isActive }: { isActive: boolean }) => `kn-topnav__link${isActive ? ' is-active' : ''}`;

/**
 * The bar's page links: a member's (after Pricing with its hint) and a visitor's. A link with `hiddenUnder` leaves
 * the bar in narrower windows (1000 or 1200 px), where it has no room for it beside the account's buttons; the side menu (Collection, the avatar for
 * the profile, FAQ & Support) and the footer still lead there.
 */
const MEMBER_LINKS = [
  { to: PATHS.explore, label: 'Explore' },
  { to: PATHS.collection, label: 'Collection', hiddenUnder: 1000 },
  { to: PATHS.myProfile, label: 'My Profile', hiddenUnder: 1000 },
  { to: PATHS.howItWorks, label: 'How It Works', hiddenUnder: 1200 },
];
const VISITOR_LINKS = [
  { to: PATHS.explore, label: 'Explore' },
  { to: PATHS.pricing, label: 'Pricing' },
  { to: PATHS.howItWorks, label: 'How It Works', hiddenUnder: 1000 },
];

export const PRICING_HINT = 'Monetize from the money tab of an upload: a one-time listing fee (from $0.65) and every play or view earns knack.';

/** Pricing with its hover (and focus) hint about the money tab and the listing fee (shown when logged in). */
function PricingLink() {
  return (
    <span className="kn-hint">
      <NavLink to={PATHS.pricing} className={linkClass} aria-describedby="kn-pricing-hint">
        Pricing
      </NavLink>
      <span role="tooltip" id="kn-pricing-hint" className="kn-hint__bubble">
        {PRICING_HINT}
      </span>
    </span>
  );
}

/**
 * Top navigation. Logged out: Explore, Pricing, Login, Create account, Upload. Logged in: Pricing
 * (with its hint), Explore, Collection, My Profile, Logout, Upload, and the avatar opening the profile summary. Both have the search box with suggestions (a
 * button opening it below 1000 px). Below 600 px a hamburger opens the side menu drawer and the bar keeps
 * search, Login (logged out) and Upload.
 */
export function TopNav() {
  const dispatch = useAppDispatch();
  const loggedIn = useAppSelector(selectIsLoggedIn);
  // Phones and narrow windows: the search is a button opening the box over the bar.
  const compactSearch = useAppSelector((state) => selectIsPhone(state) || selectViewportWidth(state) < BREAKPOINTS.compact);
  return (
    <header className="kn-topnav">
      <div className="kn-topnav__inner">
        <Button className="kn-topnav__burger" kind="text" icon={<MenuOutlined />} aria-label="Open menu" onClick={() => dispatch(sideMenuOpened())} />
        <Logo />
        <nav className="kn-topnav__links" aria-label="Main">
          {loggedIn ? <PricingLink /> : null}
          {(loggedIn ? MEMBER_LINKS : VISITOR_LINKS).map(({ to, label, hiddenUnder }) => (
            <NavLink key={to} to={to} className={(state) => `${linkClass(state)}${hiddenUnder ? ` kn-topnav__link--from-${hiddenUnder}` : ''}`}>
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="kn-topnav__search">
          <SearchBox compact={compactSearch} />
        </div>
        <div className="kn-topnav__actions">
          {loggedIn ? (
            <Button kind="text" className="kn-topnav__logout" onClick={() => dispatch(logoutRequested())}>
              Logout
            </Button>
          ) : (
            <>
              <Button kind="text" className="kn-topnav__login" onClick={() => dispatch(modalOpened('login'))}>
                Login
              </Button>
              <Button className="kn-topnav__signup" onClick={() => dispatch(modalOpened('signup'))}>
                Create account
              </Button>
            </>
          )}
          <Button
            kind="primary"
            className="kn-topnav__upload"
            icon={<CloudUploadOutlined />}
            aria-label="Upload"
            onClick={() => dispatch(modalOpened('upload'))}
          >
            <span className="kn-topnav__upload-label">Upload</span>
          </Button>
          {loggedIn ? (
            <NavLink to={PATHS.inbox} className="kn-topnav__inbox" aria-label="Inbox">
              <MailOutlined aria-hidden="true" />
              <UnreadBadge />
            </NavLink>
          ) : null}
          {loggedIn ? <ProfileSummaryButton /> : null}
        </div>
      </div>
    </header>
  );
}
