/**
 * features/subscriptions: plans and a member's subscription on the client — the Pricing page, the subscription
 * modal that opens the provider's checkout, and the page the provider sends the member back to (all lazy); and the
 * member's plan as the other screens read it.
 */
export { SUBSCRIPTION_MESSAGES } from './subscriptions.messages';
/** The member's subscription, and whether its plan is one of those offered (analytics come with one), from the cache. */
export { useHasKnownPlan, useMemberSubscription } from './hooks/useMemberPlan';

/** /pricing: the plans, the listing fees, what Knack pays against others, and the member's own plan. */
export const loadPricingPage = () => import('./pages/PricingPage');
/** /approve and /cancel: back from the subscription checkout; the webhook's outcome is asked and told. */
export const loadSubscriptionReturnPage = () => import('./pages/SubscriptionReturnPage');
/** The subscription modal: the chosen plan, then on to the checkout. */
export const loadSubscriptionModal = () => import('./components/SubscriptionModal');
