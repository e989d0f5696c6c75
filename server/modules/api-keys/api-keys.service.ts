/**
 * API keys: a member makes named keys for their own programs, each allowed some scopes, sees them listed with when
 * each was last used, and revokes them. A key is `knk_` and 32 random bytes (base64url); only its SHA-256 is kept,
 * as the key's `_id`, so checking a key is one read by `_id`. How a key is let in, call by call, is the gate's
 * (api-keys.gate.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { MESSAGES } from '../../../generated/validation';
import { API_KEY_PREFIX, type ApiKeyScope, type AuthContext } from '../../lib/auth-context';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { Schemas } from '../../lib/openapi-types';
import { insertWhole, readById, updateById } from '../../lib/query';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { memberWhoMayAct } from '../users';
import { ApiKeyModel, ApiKeySlotModel, slotKey, type ApiKeyDoc, type ApiKeySlotDoc } from './api-keys.model';

/** How many keys a member may hold at a time (revoking one frees its place). */
export const API_KEYS_MAX = 10;
/** How many keys a member may make in an hour, so that places freed by revoking are not a way to mint keys without end. */
export const API_KEY_CREATE_LIMIT: Limit = { max: 20, windowMs: 60 * 60_000 };
/** A key's last use is written at most this often: a write costs more than the read every request makes anyway. */
export const LAST_USED_EVERY_MS = 60_000;
/** A place whose key was never written (its maker stopped between the two inserts) is freed once this old. */
const ORPHAN_PLACE_MS = 60_000;
const KEY_PATTERN = /^knk_[A-Za-z0-9_-]{43}$/;

export const API_KEY_MESSAGES = {
  created: 'Your API key is made. Copy it now: it is shown only this once.',
  revoked: 'The API key is revoked.',
  tooMany: `You have ${API_KEYS_MAX} API keys, the most a member may have. Revoke one to make another.`,
  tooManyMade: 'Too many API keys made in the last hour. Please wait and try again.',
  noKey: 'This API key does not exist.',
  unknownKey: 'This API key is not known: check that it was copied whole, or make a new one in your settings.',
  revokedKey: 'This API key was revoked. Make a new one in your settings.',
  closedAccount: "This API key's account is closed or deactivated.",
  tooManyRequests: 'This API key has made too many requests. Wait the seconds Retry-After gives, then try again.',
} as const;

type ApiKeyView = Schemas['ApiKey'];

/** The `_id` a key is kept under: its SHA-256, base64url. */
export const keyIdOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

const toView = (key: ApiKeyDoc): ApiKeyView => ({
  id: key.publicId,
  name: key.name,
  scopes: key.scopes,
  start: key.start,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
});

const placesOf = (userId: string) => Array.from({ length: API_KEYS_MAX }, (_, i) => slotKey(userId, i + 1));

/**
 * The member's places and the keys in them, by `_id` (one read each, at once). A place whose key was revoked, or
 * whose key was never written, is freed on the way: what a stop between two writes left behind.
 */
async function keysInPlaces(userId: string, now: Date): Promise<{ place: ApiKeySlotDoc; key: ApiKeyDoc }[]> {
  const places = await Promise.all(placesOf(userId).map((id) => readById<ApiKeySlotDoc>(ApiKeySlotModel, id)));
  const held = await Promise.all(places.map(async (place) => (place ? { place, key: await readById<ApiKeyDoc>(ApiKeyModel, place.keyId) } : null)));
  const live: { place: ApiKeySlotDoc; key: ApiKeyDoc }[] = [];
  for (const entry of held) {
    if (!entry) continue;
    const { place, key } = entry;
    if (key && !key.revokedAt) live.push({ place, key });
    else if (key?.revokedAt || now.getTime() - place.takenAt.getTime() > ORPHAN_PLACE_MS) await ApiKeySlotModel.deleteOne({ _id: place._id });
  }
  return live.sort((a, b) => a.key.createdAt.getTime() - b.key.createdAt.getTime() || (a.key.publicId < b.key.publicId ? -1 : 1));
}

/** Takes the lowest free place for the key `keyId`; false when every place is taken. */
async function takePlace(userId: string, keyId: string, now: Date): Promise<string | null> {
  const taken = await Promise.all(placesOf(userId).map((id) => readById(ApiKeySlotModel, id, { _id: 1 })));
  for (const [i, id] of placesOf(userId).entries()) {
    if (taken[i]) continue;
    try {
      await insertWhole<ApiKeySlotDoc>(ApiKeySlotModel, { _id: id, userId: new Types.ObjectId(userId), keyId, takenAt: now });
      return id;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // taken meanwhile by a key made at once: try the next place
    }
  }
  return null;
}

/** Makes a key for the caller: its place first (the limit), then the key; the key itself is in this answer only. */
export async function createApiKey(caller: AuthContext, request: { name: string; scopes: ApiKeyScope[] }, now = new Date()): Promise<Schemas['ApiKeyCreated']> {
  const name = request.name.trim();
  if (!name) throw badRequest(MESSAGES.apiKeyNameRequired, [{ path: 'name', message: MESSAGES.apiKeyNameRequired }]);
  if (!request.scopes.length) throw badRequest(MESSAGES.apiKeyScopesRequired, [{ path: 'scopes', message: MESSAGES.apiKeyScopesRequired }]);
  await consumeLimit(`api-key-create:${caller.userId}`, API_KEY_CREATE_LIMIT, API_KEY_MESSAGES.tooManyMade, now);
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const keyId = keyIdOf(secret);
  const place = await takePlace(caller.userId, keyId, now);
  if (!place) throw new AppError(409, 'conflict', API_KEY_MESSAGES.tooMany);
  const key: ApiKeyDoc = {
    _id: keyId,
    publicId: randomBytes(12).toString('base64url'),
    userId: new Types.ObjectId(caller.userId),
    name,
    scopes: [...new Set(request.scopes)],
    start: secret.slice(0, 8),
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  try {
    await insertWhole(ApiKeyModel, key);
  } catch (err) {
    await ApiKeySlotModel.deleteOne({ _id: place });
    throw err;
  }
  return { key: toView(key), secret, message: API_KEY_MESSAGES.created };
}

/** The caller's keys, oldest first, and how many a member may hold. */
export async function listApiKeys(caller: AuthContext, now = new Date()): Promise<Schemas['ApiKeyList']> {
  const keys = await keysInPlaces(caller.userId, now);
  return { keys: keys.map(({ key }) => toView(key)), max: API_KEYS_MAX };
}

/**
 * Revokes the caller's key `publicId`: marked revoked first (from then on it answers 401), then its place is freed.
 * Only the caller's own places are read, so another member's key is not found (404), like one that never existed.
 */
export async function revokeApiKey(caller: AuthContext, publicId: string, now = new Date()): Promise<Schemas['ApiKeyRevoked']> {
  const found = (await keysInPlaces(caller.userId, now)).find(({ key }) => key.publicId === publicId);
  if (!found) throw notFound(API_KEY_MESSAGES.noKey);
  await updateById(ApiKeyModel, found.key._id, { $set: { revokedAt: now } });
  await ApiKeySlotModel.deleteOne({ _id: found.place._id });
  return { message: API_KEY_MESSAGES.revoked };
}

/** When each key's last use was last written by this process: the write is skipped within the minute. */
const lastUseWritten = new Map<string, number>();
const LAST_USES_KEPT = 10_000;

/**
 * The caller an API key stands for: the member who made it, as a member (never an admin), with the key's scopes.
 * 401 for a key that is not one (malformed, unknown), a revoked key, and a key whose account may not act now.
 */
export async function authenticateApiKey(secret: string, now = new Date()): Promise<AuthContext> {
  const keyId = keyIdOf(secret);
  const key = KEY_PATTERN.test(secret) ? await readById<ApiKeyDoc>(ApiKeyModel, keyId) : null;
  if (!key) throw new AppError(401, 'unauthorized', API_KEY_MESSAGES.unknownKey);
  if (key.revokedAt) throw new AppError(401, 'unauthorized', API_KEY_MESSAGES.revokedKey);
  const userId = String(key.userId);
  const owner = await memberWhoMayAct(userId);
  if (!owner) throw new AppError(401, 'unauthorized', API_KEY_MESSAGES.closedAccount);
  const written = Math.max(key.lastUsedAt?.getTime() ?? 0, lastUseWritten.get(keyId) ?? 0);
  if (now.getTime() - written >= LAST_USED_EVERY_MS) {
    if (lastUseWritten.size >= LAST_USES_KEPT) lastUseWritten.clear();
    lastUseWritten.set(keyId, now.getTime());
    await updateById(ApiKeyModel, keyId, { $set: { lastUsedAt: now } });
  }
  return { userId, email: owner.email, role: 'user', apiKey: { id: key.publicId, scopes: key.scopes } };
}
