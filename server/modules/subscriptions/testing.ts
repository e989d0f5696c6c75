/**
 * What tests (and the seed and bench scripts) use of this module beyond its index.ts: how a subscription's id is made,
 * to store one as the provider would. Production code never imports this file (the linter refuses it): other modules
 * use the index.
 */
export { newSubscriptionId } from './subscriptions.model';
