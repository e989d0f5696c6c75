/** Subscriptions: plans and members' subscriptions, read here (no call creates a subscription yet). */
export { PlanModel, planReads } from './plans.model';
export { SubscriptionModel, subscriptionReads } from './subscriptions.model';
export { seedPlans, PLANS } from './plans.seed';
export { subscriptionsRouter } from './subscriptions.routes';
