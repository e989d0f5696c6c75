/** Subscriptions: the plans, and members' subscriptions to them through the payment provider. */
export { PlanModel, planReads } from './plans.model';
export { SubscriptionModel, subscriptionReads, givesPlan, type SubscriptionDoc } from './subscriptions.model';
export { seedPlans, PLANS } from './plans.seed';
export { subscriptionsRouter, SUBSCRIBE_LIMIT } from './subscriptions.routes';
export { currentPlansState, currentSubscriptionOf, forgetPlanStarts } from './subscriptions.current';
export { createSubscriptionsService, hasListedPlan, hasPlanAboveFirst, SUBSCRIPTION_MESSAGES, type SubscriptionsService } from './subscriptions.service';
