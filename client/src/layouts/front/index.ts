export { FrontLayout } from './FrontLayout';
export { TopNav } from './TopNav';
export { SideMenu } from './SideMenu';
export { Footer, FOOTER_TAGLINE } from './Footer';
export { LOGGED_OUT_SIDE_MENU } from './navItems';
export { ModalHost } from './ModalHost';
