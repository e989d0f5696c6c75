import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Link, Navigate, NavLink, useLocation, useParams } from 'react-router-dom';
import Dropdown from 'antd/es/dropdown';
import ArrowLeftOutlined from '@ant-design/icons/es/icons/ArrowLeftOutlined';
import DownOutlined from '@ant-design/icons/es/icons/DownOutlined';
import { Logo } from '../../components/Logo';
import { PageLoading } from '../../components/PageLoading';
import { RouteErrorBoundary, withChunkReload } from '../../components/errors';
import { UserAvatar } from '../../components/UserAvatar';
import { PATHS } from '../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../lib/storeHooks';
import { displayUsername } from '../../lib/userNames';
import { logoutRequested, selectUser } from '../../features/auth';
import { ADMIN_SECTIONS, adminSectionOf, adminSectionPath, type AdminSection } from '../../features/admin/entry';
import { ModalHost } from '../front';
import './back.css';

/** One lazy page per section, made once, so that going back to a section keeps its chunk. */
const sectionPages = new Map<string, LazyExoticComponent<ComponentType>>();
function sectionPage(section: AdminSection) {
  let page = sectionPages.get(section.key);
  if (!page) {
    page = lazy(withChunkReload(section.load));
    sectionPages.set(section.key, page);
  }
  return page;
}

/** The admin's account: their name, a way to their own profile, and Log out. */
function AccountMenu() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  if (!user) return null;
  const name = displayUsername(user.username);
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          { key: 'profile', label: <Link to={PATHS.myProfile}>My profile</Link> },
          { key: 'logout', label: 'Log out' },
        ],
        onClick: ({ key }) => {
          if (key === 'logout') dispatch(logoutRequested());
        },
      }}
    >
      <button type="button" className="kn-back__account" aria-label={`Account of ${name}`}>
        <UserAvatar user={user} size={32} />
        <span className="kn-back__account-name">{name}</span>
        <DownOutlined aria-hidden />
      </button>
    </Dropdown>
  );
}

/**
 * The back (admin) layout: its own header (the Knack logo, the way back to the site, the admin's account menu), the
 * sections' navigation (a column beside the page; a row that scrolls sideways on phones), the section's page, the
 * modals the pages open (the site's modal host), and a footer. The sections come from the one list in features/admin (admin.sections.tsx); a path naming no section goes
 * to the first.
 */
export default function BackLayout() {
  const { section: segment } = useParams();
  const { pathname } = useLocation();
  const section = adminSectionOf(segment);
  if (!section) return <Navigate to={adminSectionPath(ADMIN_SECTIONS[0]!.key)} replace />;
  const Page = sectionPage(section);
  return (
    <div className="kn-back">
      <a className="kn-skip" href="#kn-back-main">
        Skip to content
      </a>
      <header className="kn-back__header">
        <Logo />
        <span className="kn-back__badge">Admin</span>
        <Link className="kn-back__site" to={PATHS.home} aria-label="Back to Knack">
          <ArrowLeftOutlined aria-hidden /> <span>Back to Knack</span>
        </Link>
        <AccountMenu />
      </header>
      <div className="kn-back__body">
        <nav className="kn-back__nav" aria-label="Admin sections">
          <ul>
            {ADMIN_SECTIONS.map((item) => (
              <li key={item.key}>
                <NavLink
                  to={adminSectionPath(item.key)}
                  end
                  className={({ isActive }) => `kn-back__nav-item${isActive ? ' is-active' : ''}`}
                  aria-current={item.key === section.key ? 'page' : undefined}
                >
                  <span aria-hidden="true">{item.icon}</span>
                  <span>{item.title}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="kn-back-main" className="kn-back__main" tabIndex={-1}>
          <RouteErrorBoundary resetKey={pathname}>
            <Suspense fallback={<PageLoading />}>
              <Page />
            </Suspense>
          </RouteErrorBoundary>
        </main>
      </div>
      {/* The modals the admin pages open (a message to a member, a flag), as on the site's pages. */}
      <ModalHost />
      <footer className="kn-back__footer">
        <span>Knack admin. Every change made here is recorded in the audit log.</span>
        <Link to={PATHS.home}>Back to Knack</Link>
      </footer>
    </div>
  );
}
