/**
 * The admin area's sections, in one list that both the back layout's navigation and its route read: a section is
 * one page file and one line here. The first is the default section, at `/admin`; the others are at
 * `/admin/{key}`. Each page is a lazy chunk of its own, loaded when its section is opened.
 */
import type { ComponentType, ReactNode } from 'react';
import DashboardOutlined from '@ant-design/icons/es/icons/DashboardOutlined';
import DollarOutlined from '@ant-design/icons/es/icons/DollarOutlined';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import TeamOutlined from '@ant-design/icons/es/icons/TeamOutlined';
import FlagOutlined from '@ant-design/icons/es/icons/FlagOutlined';
import AuditOutlined from '@ant-design/icons/es/icons/AuditOutlined';
import CrownOutlined from '@ant-design/icons/es/icons/CrownOutlined';
import PictureOutlined from '@ant-design/icons/es/icons/PictureOutlined';
import TagsOutlined from '@ant-design/icons/es/icons/TagsOutlined';
import FileTextOutlined from '@ant-design/icons/es/icons/FileTextOutlined';
import { loadDiscountCodesPage } from '../discount-codes';

export interface AdminSection {
  /** The path segment after `/admin/` (the first section's is not shown in its path). */
  key: string;
  /** The section's name in the navigation. */
  title: string;
  icon: ReactNode;
  load: () => Promise<{ default: ComponentType }>;
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { key: 'dashboard', title: 'Dashboard', icon: <DashboardOutlined />, load: () => import('./pages/AdminDashboardPage') },
  { key: 'members', title: 'Members', icon: <TeamOutlined />, load: () => import('./pages/AdminMembersPage') },
  { key: 'pieces', title: 'Pieces', icon: <PictureOutlined />, load: () => import('./pages/AdminPiecesPage') },
  { key: 'flags', title: 'Flags', icon: <FlagOutlined />, load: () => import('./pages/AdminFlagsPage') },
  { key: 'cash-outs', title: 'Cash-outs', icon: <DollarOutlined />, load: () => import('./pages/AdminCashOutsPage') },
  { key: 'support', title: 'Support inbox', icon: <MailOutlined />, load: () => import('./pages/AdminSupportPage') },
  { key: 'pages', title: 'Pages', icon: <FileTextOutlined />, load: () => import('./pages/AdminPagesPage') },
  { key: 'discount-codes', title: 'Discount codes', icon: <TagsOutlined />, load: loadDiscountCodesPage },
  { key: 'plans', title: 'Plans', icon: <CrownOutlined />, load: () => import('./pages/AdminPlansPage') },
  { key: 'audit', title: 'Audit log', icon: <AuditOutlined />, load: () => import('./pages/AdminAuditPage') },
];

/** The path of a section: `/admin` for the first, `/admin/{key}` for the others. */
export const adminSectionPath = (key: string) => (key === ADMIN_SECTIONS[0]?.key ? '/admin' : `/admin/${key}`);

/** The section a path's `:section` segment names (none: the first); undefined for a segment no section has. */
export const adminSectionOf = (segment: string | undefined) => (segment ? ADMIN_SECTIONS.find((section) => section.key === segment) : ADMIN_SECTIONS[0]);
