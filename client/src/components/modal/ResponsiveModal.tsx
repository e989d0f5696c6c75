import Modal, { type ModalProps } from 'antd/es/modal';
import { useAppSelector } from '../../lib/storeHooks';
import { selectIsPhone } from '../../lib/ui';

export interface ResponsiveModalProps extends Omit<ModalProps, 'width' | 'rootClassName' | 'centered'> {
  /** The width on larger screens. */
  width: number;
  /**
   * The modal's classes, the first of them its name: on phones `<name>--phone` joins them for the modal's own phone
   * rules, with kn-phone-modal (styles/global.css), which makes it the whole screen.
   */
  rootClassName?: string;
  /** In the middle of the screen; 'off-phones': only on larger screens. */
  centered?: boolean | 'off-phones';
}

/** antd's Modal at its width on larger screens, and the whole screen on phones. */
export function ResponsiveModal({ width, rootClassName, centered, ...props }: ResponsiveModalProps) {
  const isPhone = useAppSelector(selectIsPhone);
  const name = rootClassName?.split(' ')[0];
  const classes = isPhone ? [rootClassName, name ? `${name}--phone` : '', 'kn-phone-modal'] : [rootClassName];
  return (
    <Modal
      {...props}
      width={isPhone ? '100%' : width}
      centered={centered === 'off-phones' ? !isPhone : centered}
      rootClassName={classes.filter(Boolean).join(' ') || undefined}
    />
  );
}
