import type { ReactNode } from 'react';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import CompassOutlined from '@ant-design/icons/es/icons/CompassOutlined';
import DollarOutlined from '@ant-design/icons/es/icons/DollarOutlined';
import LoginOutlined from '@ant-design/icons/es/icons/LoginOutlined';
import UserAddOutlined from '@ant-design/icons/es/icons/UserAddOutlined';
import { PATHS } from '../../app/constants';
import type { ModalName } from '../../features/ui';

export type SideMenuItem =
  | { key: string; label: string; icon: ReactNode; modal: ModalName }
  | { key: string; label: string; icon: ReactNode; to: string };

/** Side menu for a logged-out visitor (spec §2): Log in, Join For Free, Upload, Pricing, Explore. */
export const LOGGED_OUT_SIDE_MENU: SideMenuItem[] = [
  { key: 'login', label: 'Log in', icon: <LoginOutlined />, modal: 'login' },
  { key: 'join', label: 'Join For Free', icon: <UserAddOutlined />, modal: 'signup' },
  { key: 'upload', label: 'Upload', icon: <CloudUploadOutlined />, modal: 'upload' },
  { key: 'pricing', label: 'Pricing', icon: <DollarOutlined />, to: PATHS.pricing },
  { key: 'explore', label: 'Explore', icon: <CompassOutlined />, to: PATHS.explore },
];
