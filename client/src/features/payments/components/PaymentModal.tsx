import { HostedModal } from '../../../components/modal';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectModalProps } from '../../../lib/ui';
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
  const { paymentType = 'dollar', contentId } = useAppSelector(selectModalProps);
  const close = () => dispatch(modalClosed());
  return (
    <HostedModal open={open} centered width={500} title={TITLES[paymentType]} rootClassName="kn-payment-modal">
      {paymentType === 'dollar' && contentId ? <MonetizeOffer contentId={contentId} onClose={close} /> : null}
      {paymentType === 'price' ? <CashOutConfirm onClose={close} /> : null}
      {paymentType === 'paid' ? <PaidCongratulation contentId={contentId} onClose={close} /> : null}
    </HostedModal>
  );
}
