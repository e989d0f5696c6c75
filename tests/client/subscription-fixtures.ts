/** Plans and subscriptions shaped as the subscription calls answer them (openapi PlansResponse, Subscription). */
import type { components } from '../../generated/openapi';

type Subscription = components['schemas']['Subscription'];
type PlansResponse = components['schemas']['PlansResponse'];

export const PLANS: PlansResponse['plans'] = [
  { planId: 1, name: 'Standard', sCredits: 3, pCredits: 0, priceMicros: 1_950_000, price: 1.95 },
  { planId: 2, name: 'Premium', sCredits: 1, pCredits: 1, priceMicros: 13_050_000, price: 13.05 },
];

export const LISTING_FEES: PlansResponse['listingFees'] = { standard: 0.65, premium: 12.4, premiumFromKnack: 0.99 };

/** `subscription/all-plans` as the server answers it (no plans: `[]`). */
export const plansAnswer = (plans: PlansResponse['plans'] = PLANS): PlansResponse => ({ plans, listingFees: LISTING_FEES });

/** An active subscription of `userId` to `planId`, renewing on 2026-12-24. */
export const subscriptionOf = (userId: string, planId: number, overrides: Partial<Subscription> = {}): Subscription => ({
  subscriptionId: 'sub_0123456789abcdef0123',
  planId,
  userId,
  createdAt: '2026-11-24T10:00:00.000Z',
  status: 'active',
  currentPeriodEnd: '2026-12-24T10:00:00.000Z',
  cancelAtPeriodEnd: false,
  renewalFailed: false,
  ...overrides,
});
