import { readerOf } from '../../lib/query';
import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * A subscription plan: how many standard (sCredits) and premium (pCredits) listing credits each paid month
 * grants, and its monthly price (an admin may change both; a change applies from the next checkout or renewal).
 */
const planSchema = new Schema(
  {
    planId: { type: Number, required: true, unique: true },
    name: { type: String, required: true },
    sCredits: { type: Number, required: true, min: 0 },
    pCredits: { type: Number, required: true, min: 0 },
    priceMicros: { type: Number, required: true, min: 0 },
  },
  { timestamps: true },
);
export type PlanDoc = InferSchemaType<typeof planSchema>;
export const PlanModel = model('Plan', planSchema, 'plans');

/** Plans as other modules may read them (they never write them). */
export const planReads = readerOf<PlanDoc>(PlanModel);
