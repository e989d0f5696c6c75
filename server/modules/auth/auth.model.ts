import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * A refresh session: one per signed-in browser. `_id` is the SHA-256 of the cookie value, so a leaked
 * database does not leak usable tokens. Rotation marks it used and makes a new one of the same family;
 * a used one presented again means theft, and the whole family is revoked.
 */
const sessionSchema = new Schema({
  _id: { type: String, required: true },
  userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
  familyId: { type: String, required: true },
  tokenVersion: { type: Number, required: true },
  createdAt: { type: Date, required: true, default: () => new Date() },
  expiresAt: { type: Date, required: true },
  usedAt: { type: Date, default: null },
});
sessionSchema.index({ userId: 1 });
sessionSchema.index({ familyId: 1 });
export type SessionDoc = InferSchemaType<typeof sessionSchema>;
export const SessionModel = model('Session', sessionSchema, 'sessions');

/** A one-time emailed token (activation, password reset), stored as its SHA-256. */
const oneTimeTokenSchema = new Schema({
  _id: { type: String, required: true },
  userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
  purpose: { type: String, enum: ['activate', 'reset'], required: true },
  expiresAt: { type: Date, required: true },
  usedAt: { type: Date, default: null },
});
oneTimeTokenSchema.index({ userId: 1, purpose: 1 });
export type OneTimeTokenDoc = InferSchemaType<typeof oneTimeTokenSchema>;
export const OneTimeTokenModel = model('OneTimeToken', oneTimeTokenSchema, 'one_time_tokens');
