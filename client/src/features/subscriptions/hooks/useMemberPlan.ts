import { skipToken } from '@reduxjs/toolkit/query/react';
import { useGetAllPlansQuery, useGetSubscriptionQuery } from '../../../api/generated/endpoints';
import { useAppSelector } from '../../../lib/storeHooks';
import { selectUser, type Subscription } from '../../auth';

/** The signed-in member's subscription, from the cache: undefined while it loads, null for none (and for a visitor). */
export function useMemberSubscription(): Subscription | null | undefined {
  const user = useAppSelector(selectUser);
  const answer = useGetSubscriptionQuery(user ? { path: { id: user.id } } : skipToken);
  if (!user) return null;
  // A subscription that cannot be read counts as none (the error toast has said why).
  if (answer.isError) return null;
  return answer.data?.subscription;
}

/**
 * Whether the member's plan is among the plans offered (what analytics come with): undefined while the subscription
 * or the plans load.
 */
export function useHasKnownPlan(): boolean | undefined {
  const subscription = useMemberSubscription();
  const plans = useGetAllPlansQuery();
  if (subscription === null) return false;
  if (subscription === undefined || (!plans.data && !plans.isError)) return undefined;
  return (plans.data?.plans ?? []).some((plan) => plan.planId === subscription.planId);
}
