import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import Spin from 'antd/es/spin';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { knackApi, useGetSubscriptionStatusQuery } from '../../../api/generated/endpoints';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch } from '../../../lib/storeHooks';
import { usePolledOutcome } from '../../../lib/usePolledOutcome';
import { notify } from '../../../components/notify';
import { SUBSCRIPTION_MESSAGES } from '../subscriptions.messages';
import './../components/pricing.css';

/** How often and how long the subscription is asked while the provider's webhook has not arrived yet. */
export const STATUS_POLL = { everyMs: 1000, times: 15 };

/**
 * `/approve?subscription={id}` and `/cancel?subscription={id}`: where the payment provider sends the member
 * back. Which of the two it was proves nothing (anyone can type the address): the server is asked what the
 * provider's webhook said. Then 'Subscription approved!' (and the member's plan, credits and menu load again)
 * or 'Subscription payment failed', and on to Pricing, which shows the plan.
 */
export default function SubscriptionReturnPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const subscriptionId = params.get('subscription') ?? '';

  const status = useGetSubscriptionStatusQuery(
    subscriptionId ? { path: { id: subscriptionId }, quiet: 'the outcome is told by the toasts below, a failed read included' } : skipToken,
  );
  const done = () => void navigate(PATHS.pricing, { replace: true });

  // An address without a subscription has nothing to ask.
  useEffect(() => {
    if (!subscriptionId) void navigate(PATHS.pricing, { replace: true });
  }, [subscriptionId, navigate]);

  // Asked again while the webhook has not decided; each outcome is told, and leaving the page ends the asking.
  usePolledOutcome(status, STATUS_POLL.everyMs, (answer, number) => {
    const state = 'data' in answer ? answer.data.subscription.status : undefined;
    if (state === 'active') {
      notify('success', SUBSCRIPTION_MESSAGES.approved);
      // The webhook changed the plan and its credits: their reads (the side menu's, Pricing's) load again.
      dispatch(knackApi.util.invalidateTags(['Subscription', 'Settings']));
    } else if (!state || state === 'failed' || state === 'ended') {
      notify('error', SUBSCRIPTION_MESSAGES.failed);
    } else if (number < STATUS_POLL.times) {
      return true;
    } else {
      notify('info', SUBSCRIPTION_MESSAGES.stillProcessing);
    }
    done();
    return false;
  });

  return (
    <div className="kn-subscription-return" role="status">
      <Spin />
      <p>Confirming your subscription with the payment provider…</p>
    </div>
  );
}
