import { readerOf } from '../../lib/query';
import { Schema, model, type InferSchemaType, type Types } from 'mongoose';

/** A member's subscription to a plan (to be created by a subscription checkout, not built yet). */
const subscriptionSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    planId: { type: Number, required: true },
    /** The payment provider's subscription id. */
    subscriptionId: { type: String, required: true, unique: true },
    status: { type: String, enum: ['active', 'cancelled'], default: 'active' },
  },
  { timestamps: true },
);
subscriptionSchema.index({ userId: 1, status: 1, createdAt: -1 });
export type SubscriptionDoc = InferSchemaType<typeof subscriptionSchema> & { _id: Types.ObjectId; createdAt: Date };
export const SubscriptionModel = model('Subscription', subscriptionSchema, 'subscriptions');

/** Subscriptions as other modules may read them (they never write them). */
export const subscriptionReads = readerOf<SubscriptionDoc>(SubscriptionModel);
