/** Subscriptions: plans and members' subscriptions, read here (no call creates a subscription yet). */
export { PlanModel } from './plans.model';
export { SubscriptionModel } from './subscriptions.model';
export { seedPlans, PLANS } from './plans.seed';
export { subscriptionsRouter } from './subscriptions.routes';
