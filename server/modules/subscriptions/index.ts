/** Subscriptions: plans and members' subscriptions (checkout and credits come with the money issue). */
export { PlanModel } from './plans.model';
export { SubscriptionModel } from './subscriptions.model';
export { seedPlans, PLANS } from './plans.seed';
export { subscriptionsRouter } from './subscriptions.routes';
