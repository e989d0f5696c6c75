import Button from 'antd/es/button';
import type { Plan, Subscription } from '../../auth';
import { formatUsd } from '../../../components/format';

interface Props {
  plans: Plan[];
  /** The member's plan now, if any. */
  current: Subscription | null;
  onChoose: (plan: Plan) => void;
}

/** Why a plan cannot be chosen now (the member's own plan, or one that still renews), or null. */
function blockedBy(plan: Plan, current: Subscription | null): string | null {
  if (!current || current.cancelAtPeriodEnd) return null;
  return current.planId === plan.planId ? 'Your plan' : 'Cancel the renewal of your plan first';
}

/** One card per plan: its monthly price, the credits each month grants, and Subscribe. */
export function PlanCards({ plans, current, onChoose }: Props) {
  return (
    <ul className="kn-plans" aria-label="Plans">
      {plans.map((plan) => {
        const blocked = blockedBy(plan, current);
        const mine = current?.planId === plan.planId;
        return (
          <li key={plan.planId} className={`kn-plan${mine ? ' kn-plan--mine' : ''}`} aria-labelledby={`kn-plan-${plan.planId}`}>
            <h3 id={`kn-plan-${plan.planId}`} className="kn-plan__name">
              Plan {plan.planId}: {plan.name}
            </h3>
            <p className="kn-plan__price">
              <strong>{formatUsd(plan.price)}</strong> a month
            </p>
            <ul className="kn-plan__credits">
              <li>
                {plan.sCredits} standard listing {plan.sCredits === 1 ? 'credit' : 'credits'} a month
              </li>
              <li>
                {plan.pCredits} premium listing {plan.pCredits === 1 ? 'credit' : 'credits'} a month
              </li>
              {plan.planId !== plans[0]?.planId ? <li>Choose who sees each piece, and hide its play or view count</li> : null}
            </ul>
            <Button type={mine ? 'default' : 'primary'} block disabled={Boolean(blocked)} onClick={() => onChoose(plan)}>
              {blocked ?? `Subscribe to ${plan.name}`}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
