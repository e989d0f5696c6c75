import { useState } from 'react';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { createSubscription } from '../../../api/generated/operations';
import { toApiError } from '../../../api/http';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectModalProps } from '../../../lib/ui';
import { notify } from '../../../components/notify';
import { selectPlans } from '../../auth';
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
  const plan = useAppSelector(selectPlans).find((candidate) => candidate.planId === planId);
  const [busy, setBusy] = useState(false);
  const close = () => dispatch(modalClosed());

  const proceed = async () => {
    if (!plan) return;
    setBusy(true);
    try {
      const checkout = await createSubscription({ body: { planId: plan.planId } }, { quiet: true });
      goToCheckout(checkout.checkoutUrl);
    } catch (error) {
      notify('error', toApiError(error).message);
      setBusy(false);
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
        <Button key="pay" type="primary" loading={busy} disabled={!plan} onClick={() => void proceed()}>
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
      ) : (
        <p>This plan is not offered any more. Choose another on the Pricing page.</p>
      )}
    </Modal>
  );
}
