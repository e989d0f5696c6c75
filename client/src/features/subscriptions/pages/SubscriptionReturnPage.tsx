import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import Spin from 'antd/es/spin';
import { getSubscriptionStatus } from '../../../api/generated/operations';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { accountExtrasRequested } from '../../auth';
import { SUBSCRIPTION_MESSAGES } from '../subscriptions.messages';
import './../components/pricing.css';

/** How often and how long the subscription is asked while the provider's webhook has not arrived yet. */
export const STATUS_POLL = { everyMs: 1000, times: 15 };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  useEffect(() => {
    let stopped = false;
    void (async () => {
      for (let attempt = 0; attempt < STATUS_POLL.times && !stopped && subscriptionId; attempt += 1) {
        const answer = await getSubscriptionStatus({ path: { id: subscriptionId } }, { quiet: true }).catch(() => null);
        if (stopped) return;
        const status = answer?.subscription.status;
        if (status === 'active') {
          notify('success', SUBSCRIPTION_MESSAGES.approved);
          dispatch(accountExtrasRequested());
          break;
        }
        if (!answer || status === 'failed' || status === 'ended') {
          notify('error', SUBSCRIPTION_MESSAGES.failed);
          break;
        }
        if (attempt === STATUS_POLL.times - 1) notify('info', SUBSCRIPTION_MESSAGES.stillProcessing);
        else await wait(STATUS_POLL.everyMs);
      }
      if (!stopped) void navigate(PATHS.pricing, { replace: true });
    })();
    return () => {
      stopped = true;
    };
  }, [subscriptionId, dispatch, navigate]);

  return (
    <div className="kn-subscription-return" role="status">
      <Spin />
      <p>Confirming your subscription with the payment provider…</p>
    </div>
  );
}
