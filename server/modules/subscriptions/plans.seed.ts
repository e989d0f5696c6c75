import { LISTING_FEES } from '../../lib/listing-fees';
import { ours } from '../../lib/query';
import { PlanModel } from './plans.model';

/**
 * Plan 1 grants 3 standard credits a month and no premium; plan 2 one of each. Each plan's price starts at
 * the list value of its credits (what the same listing fees cost one by one): $1.95 and $13.05 a month.
 */
export const PLANS = [
  { planId: 1, name: 'Standard', sCredits: 3, pCredits: 0 },
  { planId: 2, name: 'Premium', sCredits: 1, pCredits: 1 },
].map((plan) => ({ ...plan, priceMicros: plan.sCredits * LISTING_FEES.standard + plan.pCredits * LISTING_FEES.premium }));

export async function seedPlans(): Promise<void> {
  for (const plan of PLANS) {
    await PlanModel.updateOne({ planId: plan.planId }, { $setOnInsert: plan }, { upsert: true });
    // Plans seeded before they had prices get the default one; a price an admin set is kept.
    await PlanModel.updateOne(ours({ planId: plan.planId, priceMicros: { $exists: false } }), { $set: { priceMicros: plan.priceMicros } });
  }
}
