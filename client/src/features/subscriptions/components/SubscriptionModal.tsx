import { useState } from 'react';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Skeleton from 'antd/es/skeleton';
import { useCreateSubscriptionMutation, useGetAllPlansQuery } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectModalProps } from '../../../lib/ui';
import { goToCheckout } from '../../payments';
import './pricing.css';
import { formatUsd } from '../../../components/format';

/**
 * The subscription modal: the plan chosen on Pricing, what it grants every month and costs, then on to the
 * payment provider's checkout. What happens is decided by the provider's webhook, and told on the return page.
 */
export default function SubscriptionModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const { planId } = useAppSelector(selectModalProps);
  const plans = useGetAllPlansQuery();
  const plan = plans.data?.plans.find((candidate) => candidate.planId === planId);
  const [createSubscription, { isLoading: opening }] = useCreateSubscriptionMutation();
  // The browser is on its way to the checkout: the button stays busy until the page is left.
  const [leaving, setLeaving] = useState(false);
  const close = () => dispatch(modalClosed());

  const proceed = async () => {
    if (!plan) return;
    try {
      const checkout = await createSubscription({ body: { planId: plan.planId } }).unwrap();
      setLeaving(true);
      goToCheckout(checkout.checkoutUrl);
    } catch {
      // The HTTP client has shown the server's message.
    }
  };

  return (
    <Modal
      open={open}
      onCancel={close}
      title={plan ? `Subscribe to ${plan.name}` : 'Subscribe'}
      footer={[
        <Button key="cancel" onClick={close}>
          Not now
        </Button>,
        <Button key="pay" type="primary" loading={opening || leaving} disabled={!plan} onClick={() => void proceed()}>
          Continue to payment
        </Button>,
      ]}
    >
      {plan ? (
        <div className="kn-subscribe">
          <p className="kn-subscribe__price">
            <strong>{formatUsd(plan.price)}</strong> a month
          </p>
          <p>
            Every month you get {plan.sCredits} standard and {plan.pCredits} premium listing credits. Each credit lists one piece, so its plays and views earn
            knacks, without paying the listing fee.
          </p>
          <p className="kn-subscribe__fine">
            Renews every month until you cancel; cancelling keeps the plan until the end of the month you paid for. You pay on the payment provider&apos;s page.
          </p>
        </div>
      ) : plans.data ? (
        <p>This plan is not offered any more. Choose another on the Pricing page.</p>
      ) : (
        <Skeleton active paragraph={{ rows: 2 }} />
      )}
    </Modal>
  );
}
