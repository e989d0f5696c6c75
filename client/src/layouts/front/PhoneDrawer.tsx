import Drawer from 'antd/es/drawer';
import { Logo } from '../../components/Logo';
import { BRAND, PATHS } from '../../lib/constants';
import { SideMenu } from './SideMenu';

/** The side menu on phones (below 600 px): a drawer from the left, opened by the hamburger. Loaded on first open. */
export default function PhoneDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      size={300}
      title={<Logo />}
      className="kn-drawer"
      rootClassName="kn-drawer-root"
      destroyOnHidden={false}
    >
      <nav aria-label="Side menu">
        <SideMenu variant="list" onNavigate={onClose} />
      </nav>
      <div className="kn-drawer__foot">
        <a href={PATHS.privacy}>Privacy Policy</a>
        <a href={PATHS.terms}>TOS</a>
        <a href={`mailto:${BRAND.supportEmail}`}>Help</a>
      </div>
    </Drawer>
  );
}
