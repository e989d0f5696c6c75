import { NavLink, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../lib/storeHooks';
import { logoutRequested, selectIsAdmin, selectIsLoggedIn, selectSessionStatus } from '../../features/auth';
import { useHasKnownPlan } from '../../features/subscriptions';
import { modalOpened, selectIsPhone } from '../../lib/ui';
import { UnreadBadge } from '../../features/messages';
import { AccountHead } from './AccountHead';
import { LOGGED_OUT_SIDE_MENU, loggedInSideMenu, type SideMenuItem, type SideMenuLink } from './navItems';

export interface SideMenuProps {
  /** 'rail': the slim desktop sidebar (icon over label); 'list': rows, in the phone drawer. */
  variant: 'rail' | 'list';
  /** The entries; by default those of the visitor (logged out) or the member (logged in). */
  items?: SideMenuItem[];
  /** Called after an entry is chosen (the drawer closes). */
  onNavigate?: () => void;
}

const itemClass = ({ isActive }: { isActive: boolean }) => `kn-sidemenu__item${isActive ? ' is-active' : ''}`;

function SubLink({ link, onNavigate }: { link: SideMenuLink; onNavigate?: () => void }) {
  if (link.href) {
    return (
      <a href={link.href} className="kn-sidemenu__sub">
        {link.label}
      </a>
    );
  }
  return (
    <NavLink to={link.to ?? '/'} className={({ isActive }) => `kn-sidemenu__sub${isActive ? ' is-active' : ''}`} onClick={onNavigate}>
      {link.label}
    </NavLink>
  );
}

/** The side menu entries; links for screens, buttons for the modal actions and log out. */
export function SideMenu({ variant, items, onNavigate }: SideMenuProps) {
  const loggedIn = useAppSelector(selectIsLoggedIn);
  if (items || !loggedIn) return <SideMenuEntries variant={variant} entries={items ?? LOGGED_OUT_SIDE_MENU} onNavigate={onNavigate} />;
  return <MemberSideMenu variant={variant} onNavigate={onNavigate} />;
}

/**
 * The member's side menu: their head, then their entries; Analytics once their plan is known to be one of those
 * offered. Their reads wait for the session to be confirmed (a stored account is reloaded first), and a visitor's
 * menu asks the server nothing.
 */
function MemberSideMenu({ variant, onNavigate }: Omit<SideMenuProps, 'items'>) {
  const active = useAppSelector(selectSessionStatus) === 'active';
  return (
    <>
      <AccountHead variant={variant} onNavigate={onNavigate} />
      {active ? (
        <MemberEntriesWithPlan variant={variant} onNavigate={onNavigate} />
      ) : (
        <MemberEntries variant={variant} onNavigate={onNavigate} showAnalytics={false} />
      )}
    </>
  );
}

function MemberEntriesWithPlan(props: Omit<SideMenuProps, 'items'>) {
  return <MemberEntries {...props} showAnalytics={useHasKnownPlan() === true} />;
}

function MemberEntries({ variant, onNavigate, showAnalytics }: Omit<SideMenuProps, 'items'> & { showAnalytics: boolean }) {
  const { pathname } = useLocation();
  const isAdmin = useAppSelector(selectIsAdmin);
  const isPhone = useAppSelector(selectIsPhone);
  return <SideMenuEntries variant={variant} entries={loggedInSideMenu({ pathname, isAdmin, showAnalytics, isPhone })} onNavigate={onNavigate} />;
}

function SideMenuEntries({ variant, entries, onNavigate }: { variant: SideMenuProps['variant']; entries: SideMenuItem[]; onNavigate?: () => void }) {
  const dispatch = useAppDispatch();
  const label = (item: SideMenuItem) => (
    <>
      <span className="kn-sidemenu__icon" aria-hidden="true">
        {item.icon}
      </span>
      <span className="kn-sidemenu__label">{variant === 'rail' && 'railLabel' in item && item.railLabel ? item.railLabel : item.label}</span>
      {item.key === 'inbox' ? <UnreadBadge /> : null}
    </>
  );
  return (
    <ul className={`kn-sidemenu kn-sidemenu--${variant}`}>
      {entries.map((item) => (
        <li key={item.key}>
          {'to' in item ? (
            <NavLink to={item.to} className={itemClass} onClick={onNavigate}>
              {label(item)}
            </NavLink>
          ) : 'children' in item ? (
            variant === 'rail' ? (
              <NavLink to={item.children[0]?.to ?? '/'} className={itemClass} title={item.children.map((child) => child.label).join(', ')}>
                {label(item)}
              </NavLink>
            ) : (
              <div className="kn-sidemenu__group" role="group" aria-label={item.label}>
                <span className="kn-sidemenu__item kn-sidemenu__item--heading">{label(item)}</span>
                <ul className="kn-sidemenu__subs">
                  {item.children.map((child) => (
                    <li key={child.key}>
                      <SubLink link={child} onNavigate={onNavigate} />
                    </li>
                  ))}
                </ul>
              </div>
            )
          ) : (
            <button
              type="button"
              className={`kn-sidemenu__item${item.key === 'join' ? ' kn-sidemenu__item--accent' : ''}`}
              onClick={() => {
                if ('modal' in item) dispatch(modalOpened(item.modal));
                else dispatch(logoutRequested());
                onNavigate?.();
              }}
            >
              {label(item)}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
