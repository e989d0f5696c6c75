import type { ReactNode } from 'react';
import AppstoreOutlined from '@ant-design/icons/es/icons/AppstoreOutlined';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import CompassOutlined from '@ant-design/icons/es/icons/CompassOutlined';
import DollarOutlined from '@ant-design/icons/es/icons/DollarOutlined';
import IdcardOutlined from '@ant-design/icons/es/icons/IdcardOutlined';
import LineChartOutlined from '@ant-design/icons/es/icons/LineChartOutlined';
import LoginOutlined from '@ant-design/icons/es/icons/LoginOutlined';
import LogoutOutlined from '@ant-design/icons/es/icons/LogoutOutlined';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import QuestionCircleOutlined from '@ant-design/icons/es/icons/QuestionCircleOutlined';
import ReadOutlined from '@ant-design/icons/es/icons/ReadOutlined';
import SafetyCertificateOutlined from '@ant-design/icons/es/icons/SafetyCertificateOutlined';
import UserAddOutlined from '@ant-design/icons/es/icons/UserAddOutlined';
import WalletOutlined from '@ant-design/icons/es/icons/WalletOutlined';
import { PATHS } from '../../lib/constants';
import type { ModalName } from '../../lib/ui';

/** A product path (router link) or a static page (plain link). */
export interface SideMenuLink {
  key: string;
  label: string;
  to?: string;
  href?: string;
}

export type SideMenuItem =
  | { key: string; label: string; icon: ReactNode; modal: ModalName }
  | { key: string; label: string; icon: ReactNode; to: string }
  | { key: string; label: string; icon: ReactNode; action: 'logout' }
  /** A group: its entries in the phone list; in the desktop rail one entry (`railLabel`) leading to the first. */
  | { key: string; label: string; railLabel?: string; icon: ReactNode; children: SideMenuLink[] };

/** Side menu for a logged-out visitor: Log in, Join For Free, Upload, Pricing, Explore. */
export const LOGGED_OUT_SIDE_MENU: SideMenuItem[] = [
  { key: 'login', label: 'Log in', icon: <LoginOutlined />, modal: 'login' },
  { key: 'join', label: 'Join For Free', icon: <UserAddOutlined />, modal: 'signup' },
  { key: 'upload', label: 'Upload', icon: <CloudUploadOutlined />, modal: 'upload' },
  { key: 'pricing', label: 'Pricing', icon: <DollarOutlined />, to: PATHS.pricing },
  { key: 'explore', label: 'Explore', icon: <CompassOutlined />, to: PATHS.explore },
];

export interface LoggedInMenuOptions {
  pathname: string;
  isAdmin: boolean;
  /** The subscription's plan is among the known plans: the Analytics item shows. */
  showAnalytics: boolean;
  isPhone: boolean;
}

/**
 * Side menu for a signed-in member: Admin (admins only, hidden on the admin page), Wallet (hidden
 * on the wallet page), Analytics (known plan), Your Information (Settings, Activity History), Collection,
 * Pricing, Explore, FAQ & Support, User Guide, Upload, and Log out on phones.
 */
export function loggedInSideMenu({ pathname, isAdmin, showAnalytics, isPhone }: LoggedInMenuOptions): SideMenuItem[] {
  const items: (SideMenuItem | false)[] = [
    isAdmin && !pathname.startsWith(PATHS.admin) && { key: 'admin', label: 'Admin', icon: <SafetyCertificateOutlined />, to: PATHS.admin },
    !pathname.startsWith(PATHS.wallet) && { key: 'wallet', label: 'Wallet', icon: <WalletOutlined />, to: PATHS.wallet },
    { key: 'inbox', label: 'Inbox', icon: <MailOutlined />, to: PATHS.inbox },
    showAnalytics && { key: 'analytics', label: 'Analytics', icon: <LineChartOutlined />, to: PATHS.analytics },
    {
      key: 'info',
      label: 'Your Information',
      railLabel: 'Your Info',
      icon: <IdcardOutlined />,
      children: [
        { key: 'settings', label: 'Settings', to: PATHS.settings },
        { key: 'history', label: 'Activity History', to: PATHS.activityHistory },
      ],
    },
    { key: 'collection', label: 'Collection', icon: <AppstoreOutlined />, to: PATHS.collection },
    { key: 'pricing', label: 'Pricing', icon: <DollarOutlined />, to: PATHS.pricing },
    { key: 'explore', label: 'Explore', icon: <CompassOutlined />, to: PATHS.explore },
    {
      key: 'support',
      label: 'FAQ & Support',
      icon: <QuestionCircleOutlined />,
      children: [
        { key: 'faq', label: 'FAQ', to: PATHS.faq },
        { key: 'nft', label: 'Comparison with NFT', to: PATHS.nft },
        { key: 'how', label: 'How It Works', to: PATHS.howItWorks },
        { key: 'terms', label: 'Terms', href: PATHS.terms },
        { key: 'privacy', label: 'Privacy', href: PATHS.privacy },
      ],
    },
    { key: 'guide', label: 'User Guide', icon: <ReadOutlined />, to: PATHS.userGuide },
    { key: 'upload', label: 'Upload', icon: <CloudUploadOutlined />, modal: 'upload' },
    isPhone && { key: 'logout', label: 'Log out', icon: <LogoutOutlined />, action: 'logout' },
  ];
  return items.filter((item): item is SideMenuItem => Boolean(item));
}
