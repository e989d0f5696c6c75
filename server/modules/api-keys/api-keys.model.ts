import { Schema, model, type Types } from 'mongoose';
import type { ApiKeyScope } from '../../lib/auth-context';

/**
 * One API key, under the SHA-256 of the key itself (base64url): checking a key is one read by `_id`, and the key
 * is stored nowhere. `publicId` names it in the settings and the revoke call. A revoked key is kept, with
 * `revokedAt`, so that its next use is told it was revoked rather than that it is unknown.
 */
const apiKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    publicId: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true },
    scopes: { type: [String], required: true },
    start: { type: String, required: true },
    createdAt: { type: Date, required: true },
    lastUsedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
apiKeySchema.index({ userId: 1 });

export interface ApiKeyDoc {
  _id: string;
  publicId: string;
  userId: Types.ObjectId;
  name: string;
  scopes: ApiKeyScope[];
  /** The key's first characters (`knk_` and 4 more), shown to tell keys apart. */
  start: string;
  createdAt: Date;
  /** When the key was last used, to the minute (written at most once a minute: a write costs more than a read). */
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const ApiKeyModel = model<ApiKeyDoc>('ApiKey', apiKeySchema, 'api_keys');

/**
 * A member's places for keys, numbered 1 to API_KEYS_MAX: `_id: {userId}#{n}`. Making a key first inserts the lowest
 * free place; an insert on a unique `_id` is the one step two requests cannot both win (also on FerretDB, whose
 * updates are not atomic), so a member never holds more keys than places, however many they ask for at once.
 * Revoking a key deletes its place. The member's list is read from the places, by `_id`.
 */
const apiKeySlotSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    keyId: { type: String, required: true },
    takenAt: { type: Date, required: true },
  },
  { versionKey: false },
);
apiKeySlotSchema.index({ userId: 1 });

export interface ApiKeySlotDoc {
  _id: string;
  userId: Types.ObjectId;
  /** The `_id` of the key in the place (its hash). */
  keyId: string;
  takenAt: Date;
}

export const ApiKeySlotModel = model<ApiKeySlotDoc>('ApiKeySlot', apiKeySlotSchema, 'api_key_slots');

export const slotKey = (userId: string, n: number) => `${userId}#${n}`;
