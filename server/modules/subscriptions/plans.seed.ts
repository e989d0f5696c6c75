import { PlanModel } from './plans.model';

/** Plan 1 grants 3 standard credits and no premium; plan 2 one of each. */
export const PLANS = [
  { planId: 1, name: 'Standard', sCredits: 3, pCredits: 0 },
  { planId: 2, name: 'Premium', sCredits: 1, pCredits: 1 },
];

export async function seedPlans(): Promise<void> {
  for (const plan of PLANS) {
    await PlanModel.updateOne({ planId: plan.planId }, { $setOnInsert: plan }, { upsert: true });
  }
}
