export { ResponsiveModal, type ResponsiveModalProps } from './ResponsiveModal';
export { HostedModal } from './HostedModal';
export { WarningTitle } from './WarningTitle';
