import { NavLink } from 'react-router-dom';
import { useAppDispatch } from '../../app/hooks';
import { modalOpened } from '../../features/ui';
import { LOGGED_OUT_SIDE_MENU, type SideMenuItem } from './navItems';

export interface SideMenuProps {
  /** 'rail': the slim desktop sidebar (icon over label); 'list': rows, in the phone drawer. */
  variant: 'rail' | 'list';
  items?: SideMenuItem[];
  /** Called after an entry is chosen (the drawer closes). */
  onNavigate?: () => void;
}

/** The side menu entries; links for screens, buttons for the modal actions. */
export function SideMenu({ variant, items = LOGGED_OUT_SIDE_MENU, onNavigate }: SideMenuProps) {
  const dispatch = useAppDispatch();
  const className = `kn-sidemenu kn-sidemenu--${variant}`;
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.key}>
          {'to' in item ? (
            <NavLink
              to={item.to}
              className={({ isActive }) => `kn-sidemenu__item${isActive ? ' is-active' : ''}`}
              onClick={onNavigate}
            >
              <span className="kn-sidemenu__icon" aria-hidden="true">{item.icon}</span>
              <span className="kn-sidemenu__label">{item.label}</span>
            </NavLink>
          ) : (
            <button
              type="button"
              className={`kn-sidemenu__item${item.key === 'join' ? ' kn-sidemenu__item--accent' : ''}`}
              onClick={() => {
                dispatch(modalOpened(item.modal));
                onNavigate?.();
              }}
            >
              <span className="kn-sidemenu__icon" aria-hidden="true">{item.icon}</span>
              <span className="kn-sidemenu__label">{item.label}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
