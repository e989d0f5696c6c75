/** Subscriptions: plans (seeded now); subscribing and credits come with the money issue. */
export { PlanModel } from './plans.model';
export { seedPlans, PLANS } from './plans.seed';
