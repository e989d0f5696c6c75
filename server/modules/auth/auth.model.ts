import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * A refresh session: one per signed-in browser. `_id` is the SHA-256 of the cookie value, so a leaked
 * database does not leak usable tokens. Rotation spends it (a `SpentToken`) and makes a new one of the same
 * family; a spent one presented again means theft, and the whole family is revoked.
 */
const sessionSchema = new Schema({
  _id: { type: String, required: true },
  userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
  familyId: { type: String, required: true },
  tokenVersion: { type: Number, required: true },
  createdAt: { type: Date, required: true, default: () => new Date() },
  expiresAt: { type: Date, required: true },
  /** Set by versions that marked sessions used in place; such a session counts as spent. */
  usedAt: { type: Date, default: null },
});
sessionSchema.index({ userId: 1 });
sessionSchema.index({ familyId: 1 });
export type SessionDoc = InferSchemaType<typeof sessionSchema>;
export const SessionModel = model('Session', sessionSchema, 'sessions');

/**
 * A one-time emailed token (activation, password reset, an email change's confirm link and cancel link, and the
 * registration link of a waiting account),
 * stored as its SHA-256.
 */
const oneTimeTokenSchema = new Schema({
  _id: { type: String, required: true },
  userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
  purpose: { type: String, enum: ['activate', 'reset', 'email-change', 'email-cancel', 'register'], required: true },
  /** The new address an email change's link is for; null for the other purposes. */
  email: { type: String, default: null },
  /**
   * The address a cancel link was mailed to: the email the change moves away from, which the link gives back.
   * While such a link can be used, that address stays its member's (nobody else signs up or moves to it).
   */
  previousEmail: { type: String, default: null },
  /** When it was made; a cancel link ends the links made after it (auth.identity.ts). Missing on older links. */
  createdAt: { type: Date, default: () => new Date() },
  expiresAt: { type: Date, required: true },
  /** Set by versions that marked tokens used in place; such a token counts as spent. */
  usedAt: { type: Date, default: null },
});
oneTimeTokenSchema.index({ userId: 1, purpose: 1 });
oneTimeTokenSchema.index({ previousEmail: 1 });
export type OneTimeTokenDoc = InferSchemaType<typeof oneTimeTokenSchema>;
export const OneTimeTokenModel = model('OneTimeToken', oneTimeTokenSchema, 'one_time_tokens');

/**
 * What has been spent, each inserted once under a key naming it: `session:{id}` (a rotated refresh token),
 * `token:{id}` (a used emailed link), `family:{familyId}` (a revoked sign-in chain). Two requests racing to
 * spend the same token both try the insert and only one gets it: the unique `_id` decides, on MongoDB and on
 * FerretDB alike, where a guarded update ("set used where not used yet") can succeed for both.
 * A document outlives what it spends and is then removed by the housekeeping job (`purgeSpentTokens`; FerretDB
 * refuses TTL indexes, so one deletion serves both databases).
 */
const spentTokenSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
spentTokenSchema.index({ expiresAt: 1 });
export const SpentTokenModel = model('SpentToken', spentTokenSchema, 'spent_tokens');
