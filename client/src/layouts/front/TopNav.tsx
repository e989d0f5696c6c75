import { NavLink } from 'react-router-dom';
import Button from 'antd/es/button';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import MenuOutlined from '@ant-design/icons/es/icons/MenuOutlined';
import { PATHS } from '../../app/constants';
import { useAppDispatch } from '../../app/hooks';
import { Logo } from '../../components/Logo';
import { modalOpened, sideMenuOpened } from '../../features/ui';

/**
 * Top navigation for a logged-out visitor (spec §2): Explore, Pricing, Login, Create account, Upload.
 * Below 600 px a hamburger opens the side menu drawer and the bar keeps Login and Upload.
 */
export function TopNav() {
  const dispatch = useAppDispatch();
  const linkClass = ({ isActive }: { isActive: boolean }) => `kn-topnav__link${isActive ? ' is-active' : ''}`;
  return (
    <header className="kn-topnav">
      <div className="kn-topnav__inner">
        <Button
          className="kn-topnav__burger"
          type="text"
          icon={<MenuOutlined />}
          aria-label="Open menu"
          onClick={() => dispatch(sideMenuOpened())}
        />
        <Logo />
        <nav className="kn-topnav__links" aria-label="Main">
          <NavLink to={PATHS.explore} className={linkClass}>
            Explore
          </NavLink>
          <NavLink to={PATHS.pricing} className={linkClass}>
            Pricing
          </NavLink>
        </nav>
        <div className="kn-topnav__actions">
          <Button type="text" className="kn-topnav__login" onClick={() => dispatch(modalOpened('login'))}>
            Login
          </Button>
          <Button className="kn-topnav__signup" onClick={() => dispatch(modalOpened('signup'))}>
            Create account
          </Button>
          <Button
            type="primary"
            className="kn-topnav__upload"
            icon={<CloudUploadOutlined />}
            aria-label="Upload"
            onClick={() => dispatch(modalOpened('upload'))}
          >
            <span className="kn-topnav__upload-label">Upload</span>
          </Button>
        </div>
      </div>
    </header>
  );
}
