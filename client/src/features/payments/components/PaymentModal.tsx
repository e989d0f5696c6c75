import Modal from 'antd/es/modal';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectIsPhone, selectModalProps } from '../../../lib/ui';
import { CashOutConfirm } from './CashOutConfirm';
import { MonetizeOffer } from './MonetizeOffer';
import { PaidCongratulation } from './PaidCongratulation';
import './payments.css';

const TITLES = { dollar: 'Monetize this piece', price: 'Cash out', paid: 'Congratulations!' } as const;

/**
 * The payment modal: type `dollar` offers to monetize a piece (listing fee by a
 * credit, a discount code or the checkout), `price` confirms a cash-out (yes adds an earn history item), `paid`
 * congratulates (Close only).
 */
export default function PaymentModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const isPhone = useAppSelector(selectIsPhone);
  const { paymentType = 'dollar', contentId } = useAppSelector(selectModalProps);
  const close = () => dispatch(modalClosed());
  return (
    <Modal
      open={open}
      onCancel={close}
      footer={null}
      centered
      destroyOnHidden
      width={isPhone ? '100%' : 500}
      title={TITLES[paymentType]}
      rootClassName={isPhone ? 'kn-payment-modal kn-phone-modal' : 'kn-payment-modal'}
    >
      {paymentType === 'dollar' && contentId ? <MonetizeOffer contentId={contentId} onClose={close} /> : null}
      {paymentType === 'price' ? <CashOutConfirm onClose={close} /> : null}
      {paymentType === 'paid' ? <PaidCongratulation contentId={contentId} onClose={close} /> : null}
    </Modal>
  );
}
