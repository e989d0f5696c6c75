import { Schema, model } from 'mongoose';

/**
 * The sandbox provider's checkouts (what the local checkout page shows), kept in the database so that any
 * instance can serve the page. `status` moves once, from open to approved or declined.
 */
const sandboxCheckoutSchema = new Schema(
  {
    _id: { type: String, required: true },
    orderId: { type: String, required: true },
    payerId: { type: String, required: true },
    amountMicros: { type: Number, required: true },
    currency: { type: String, required: true },
    description: { type: String, required: true },
    successUrl: { type: String, required: true },
    cancelUrl: { type: String, required: true },
    status: { type: String, enum: ['open', 'approved', 'declined'], default: 'open' },
  },
  { timestamps: true, versionKey: false },
);

export interface SandboxCheckoutDoc {
  _id: string;
  orderId: string;
  payerId: string;
  amountMicros: number;
  currency: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'approved' | 'declined';
}

export const SandboxCheckoutModel = model<SandboxCheckoutDoc>('SandboxCheckout', sandboxCheckoutSchema, 'sandbox_checkouts');
