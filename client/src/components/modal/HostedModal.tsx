import { useAppDispatch } from '../../lib/storeHooks';
import { modalClosed } from '../../lib/ui';
import { ResponsiveModal, type ResponsiveModalProps } from './ResponsiveModal';

/**
 * A modal that the modal host opens by name (the UI state's open modal): closing it closes the host's modal; it has
 * no footer (its content holds the buttons), is centered but on phones, and starts afresh at each opening (destroyed
 * when hidden). Each of these may be given otherwise.
 */
export function HostedModal(props: ResponsiveModalProps) {
  const dispatch = useAppDispatch();
  return <ResponsiveModal onCancel={() => dispatch(modalClosed())} footer={null} centered="off-phones" destroyOnHidden {...props} />;
}
