import Button from 'antd/es/button';
import { useGetCreditMovementsQuery, useUpdateSubscriptionMutation } from '../../../api/generated/endpoints';
import { notify } from '../../../components/notify';
import type { Plan, Subscription, UserExt } from '../../auth';
import { SUBSCRIPTION_MESSAGES } from '../subscriptions.messages';

const day = (at: string) => new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

const REASONS: Record<string, string> = {
  plan: 'Plan month',
  listing: 'Listed a piece',
  'listing-undone': 'Listing undone, credit back',
  admin: 'Changed by Knack',
};

const signed = (amount: number) => (amount > 0 ? `+${amount}` : String(amount));

interface Props {
  userId: string;
  subscription: Subscription | null;
  plan: Plan | undefined;
  ext: UserExt | null;
}

/** The member's plan (when it renews or ends, cancel or resume), their credits, and every credit movement. */
export function CurrentPlan({ userId, subscription, plan, ext }: Props) {
  const movements = useGetCreditMovementsQuery({ path: { id: userId } });
  const [updateSubscription, { isLoading: busy }] = useUpdateSubscriptionMutation();

  // The plan shown here loads again once changed.
  const setRenewal = async (cancel: boolean) => {
    if (!subscription) return;
    try {
      await updateSubscription({ body: { subscriptionId: subscription.subscriptionId, cancelAtPeriodEnd: cancel } }).unwrap();
      notify('success', cancel ? SUBSCRIPTION_MESSAGES.cancelled : SUBSCRIPTION_MESSAGES.resumed);
    } catch {
      // The HTTP client has shown the server's message.
    }
  };

  const end = subscription?.currentPeriodEnd ? day(subscription.currentPeriodEnd) : null;
  return (
    <section className="kn-current-plan" aria-labelledby="kn-current-plan-title">
      <h2 id="kn-current-plan-title">Your plan</h2>
      {subscription ? (
        <div className="kn-current-plan__row">
          <p>
            <strong>{plan ? `Plan ${plan.planId}: ${plan.name}` : `Plan ${subscription.planId}`}</strong>
            <br />
            {subscription.renewalFailed
              ? `The last renewal payment failed. The plan ends on ${end}.`
              : subscription.cancelAtPeriodEnd
                ? `Does not renew. The plan ends on ${end}.`
                : end
                  ? `Renews on ${end}.`
                  : 'Active.'}
          </p>
          {end && !subscription.renewalFailed ? (
            <Button loading={busy} onClick={() => void setRenewal(!subscription.cancelAtPeriodEnd)}>
              {subscription.cancelAtPeriodEnd ? 'Resume renewal' : 'Cancel renewal'}
            </Button>
          ) : null}
        </div>
      ) : (
        <p>You have no plan. Listing fees are paid one piece at a time, or choose a plan below.</p>
      )}
      <p className="kn-current-plan__credits" data-testid="credits-left">
        Credits left: <strong>{ext?.sCredit ?? 0}</strong> standard, <strong>{ext?.pCredit ?? 0}</strong> premium
      </p>
      {movements.data && movements.data.movements.length > 0 ? (
        <details className="kn-credit-history">
          <summary>Where your credits came from and went</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">What</th>
                <th scope="col">Standard</th>
                <th scope="col">Premium</th>
              </tr>
            </thead>
            <tbody>
              {movements.data.movements.map((movement) => (
                <tr key={movement.id}>
                  <td>{day(movement.at)}</td>
                  <td>
                    {REASONS[movement.reason] ?? movement.reason}
                    {movement.note ? `: ${movement.note}` : ''}
                  </td>
                  <td>{signed(movement.standard)}</td>
                  <td>{signed(movement.premium)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </section>
  );
}
