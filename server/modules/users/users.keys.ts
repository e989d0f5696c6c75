/**
 * Member keys: one key document (lib/key-documents.ts) per value that names a member (their email, their username,
 * their Google or Facebook id), whose `_id` is the value itself (`email:ana@example.com`, `username:ana_b`,
 * `google:1234`), in `member_keys`. Sign-in, sign-up's checks, a profile by username and a social sign-in find the
 * member in two reads by `_id` (the key, then the account) however many members there are, where a filter on
 * `users.email` would read every account.
 *
 * A key is claimed by insert before the account takes the value (sign-up, rename, email change, a social id linked)
 * and marked held once the account has it; the value the account gave up loses its key after. So of two sign-ups
 * with one address, or two members taking one name, in any processes, one wins. The unique indexes on `users` stay
 * as a second guard. The `member-keys` kept state compares the keys with the accounts and rebuilds them in bulk.
 * A database written before keys existed has none: the app runs the rebuild at start while the keys are not
 * marked complete, and until then a read that finds no key falls back to the account's field and keeps the key.
 */
import { Schema, model, Types } from 'mongoose';
import { keyDocuments } from '../../lib/key-documents';
import type { KeptState } from '../../lib/kept-state';
import { readById } from '../../lib/query';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { UserExtModel, UserModel, type UserDoc, type UserExtDoc } from './users.model';

const memberKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The account that has the value. */
    ref: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    state: { type: String, enum: ['claimed', 'held'], required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
export const MemberKeyModel = model('MemberKey', memberKeySchema, 'member_keys');

/** The values that name a member, each with the account field that holds it. */
export type MemberKeyKind = 'email' | 'username' | 'google' | 'facebook';
const FIELD_OF = { email: 'email', username: 'username', google: 'googleId', facebook: 'facebookId' } as const satisfies Record<MemberKeyKind, keyof UserDoc>;
const KINDS = Object.keys(FIELD_OF) as MemberKeyKind[];

const keyId = (kind: MemberKeyKind, value: string) => `${kind}:${value}`;

/** The kind and value of a key id. */
function partsOf(id: string): [MemberKeyKind, string] {
  const colon = id.indexOf(':');
  return [id.slice(0, colon) as MemberKeyKind, id.slice(colon + 1)];
}

/** The key of a member's extension (`user_exts`, whose `_id` is its own): `ext:{userId}`, naming the extension. */
const EXT = 'ext';
const extKeyId = (userId: Types.ObjectId | string) => `${EXT}:${String(userId)}`;

const memberKeys = keyDocuments({
  model: MemberKeyModel,
  async holds(id, ref) {
    if (id.startsWith(`${EXT}:`)) {
      const ext = await readById<Pick<UserExtDoc, 'userId'>>(UserExtModel, ref, { userId: 1 });
      return Boolean(ext && extKeyId(ext.userId) === id);
    }
    const [kind, value] = partsOf(id);
    const field = FIELD_OF[kind];
    const user = await readById<Partial<UserDoc>>(UserModel, ref, { [field]: 1 });
    return Boolean(user && user[field] === value);
  },
});

/**
 * The member whose `kind` is `value` (already normalized: emails trimmed and lower-cased, usernames as kept), or
 * null. Two reads by `_id`; on a database whose keys are not complete yet, a miss reads the accounts and keeps
 * the key it finds.
 */
export function memberByKey(kind: MemberKeyKind, value: string): Promise<UserDoc | null> {
  const field = FIELD_OF[kind];
  return memberKeys.lookUp(
    keyId(kind, value),
    (ref) => readById<UserDoc>(UserModel, ref),
    (user) => user[field] === value,
    () => UserModel.findOne({ [field]: value }).lean<UserDoc>(),
  );
}

/**
 * The member's extension (location, credits, payout account), read by its key: two reads by `_id`, where a filter on
 * `user_exts.userId` would read every member's. Null when the member has none yet.
 */
export function extensionOf(userId: Types.ObjectId | string): Promise<StoredExt | null> {
  const id = extKeyId(userId);
  return memberKeys.lookUp(
    id,
    (ref) => readById<StoredExt>(UserExtModel, ref),
    (ext) => extKeyId(ext.userId) === id,
    () => UserExtModel.findOne({ userId: new Types.ObjectId(String(userId)) }).lean<StoredExt>(),
  );
}
type StoredExt = UserExtDoc & { _id: Types.ObjectId };

/**
 * The `_id` of the member's extension, made on first use (its key written with it), for the writes that change it by
 * `_id`. The unique index on `userId` makes one extension per member: of two first uses at once, one inserts and
 * the other reads the one made (by its field, once: a race at creation only), keeping its key.
 */
export async function extensionIdOf(userId: Types.ObjectId | string): Promise<Types.ObjectId> {
  const found = await extensionOf(userId);
  if (found) return found._id;
  const member = new Types.ObjectId(String(userId));
  const _id = new Types.ObjectId();
  try {
    await UserExtModel.create({ _id, userId: member });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const made = await UserExtModel.findOne({ userId: member }, { _id: 1 }).lean<{ _id: Types.ObjectId }>();
    if (!made) throw err;
    await memberKeys.keep(extKeyId(member), made._id);
    return made._id;
  }
  await memberKeys.keep(extKeyId(member), _id);
  return _id;
}

/** Removes the key of a member's extension (removed with the account). */
export async function releaseExtensionKey(userId: Types.ObjectId, extId: Types.ObjectId): Promise<void> {
  await memberKeys.release(extKeyId(userId), extId);
}

/** Claims `value` as `kind` for the account `userId` (lib/key-documents.ts); false when another account has it or is taking it. */
export const claimMemberKey = (kind: MemberKeyKind, value: string, userId: Types.ObjectId) => memberKeys.claim(keyId(kind, value), userId);

/** Marks the account's claimed key held: the account has the value now. */
export const confirmMemberKey = (kind: MemberKeyKind, value: string, userId: Types.ObjectId) => memberKeys.confirm(keyId(kind, value), userId);

/** Removes the account's key of a value it gave up, or whose claim failed (another account's key stays). */
export async function releaseMemberKey(kind: MemberKeyKind, value: string | null | undefined, userId: Types.ObjectId): Promise<void> {
  if (value) await memberKeys.release(keyId(kind, value), userId);
}

/** The keyed values an account has. */
function keyedValuesOf(user: Partial<UserDoc>): [MemberKeyKind, string][] {
  return KINDS.flatMap((kind) => {
    const value = user[FIELD_OF[kind]];
    return typeof value === 'string' && value ? [[kind, value] as [MemberKeyKind, string]] : [];
  });
}

/**
 * Claims every keyed value of a new account (`_id` chosen by the caller); answers the kind that was taken, with the
 * others released, or null when all are claimed.
 */
export async function claimAccountKeys(user: Partial<UserDoc> & { _id: Types.ObjectId }): Promise<MemberKeyKind | null> {
  const claimed: [MemberKeyKind, string][] = [];
  for (const [kind, value] of keyedValuesOf(user)) {
    if (!(await claimMemberKey(kind, value, user._id))) {
      await Promise.all(claimed.map(([k, v]) => releaseMemberKey(k, v, user._id)));
      return kind;
    }
    claimed.push([kind, value]);
  }
  return null;
}

/** Marks every keyed value of the account held (after it was written). */
export async function confirmAccountKeys(user: Partial<UserDoc> & { _id: Types.ObjectId }): Promise<void> {
  await Promise.all(keyedValuesOf(user).map(([kind, value]) => confirmMemberKey(kind, value, user._id)));
}

/**
 * The error a write gets when a key it claims is another account's: shaped as the database's duplicate-key error
 * (code 11000 and the field in `keyPattern`), which the callers already tell apart by field.
 */
export function keyTakenError(kind: MemberKeyKind): Error {
  return Object.assign(new Error(`E11000 duplicate key: this ${kind} is another member's`), { code: 11000, keyPattern: { [FIELD_OF[kind]]: 1 } });
}

/** Removes the account's keys of the values given (an account removed, or its values given up). */
export async function releaseAccountKeys(user: Partial<UserDoc> & { _id: Types.ObjectId }): Promise<void> {
  await Promise.all(keyedValuesOf(user).map(([kind, value]) => releaseMemberKey(kind, value, user._id)));
}

/**
 * Every key the accounts and extensions call for, by id, with the document's id (streamed: a few hundred thousand
 * fit in memory).
 */
async function expectedKeys(): Promise<Map<string, string>> {
  const expected = new Map<string, string>();
  const cursor = UserModel.collection.find({}, { projection: { email: 1, username: 1, googleId: 1, facebookId: 1 }, batchSize: 1_000 });
  for await (const user of cursor) {
    for (const [kind, value] of keyedValuesOf(user)) expected.set(keyId(kind, value), String(user._id));
  }
  for await (const ext of UserExtModel.collection.find({}, { projection: { userId: 1 }, batchSize: 1_000 })) {
    if (ext.userId) expected.set(extKeyId(ext.userId as Types.ObjectId), String(ext._id));
  }
  return expected;
}

/** The member keys as a kept state (`npm run rebuild -- member-keys`). */
export const memberKeysState: KeptState = {
  name: 'member-keys',
  describe: "Each member's email, username, Google and Facebook ids and extension as key documents (member_keys), rebuilt from the accounts and extensions.",
  check: async () => memberKeys.compare(await expectedKeys(), false),
  rebuild: async () => memberKeys.compare(await expectedKeys(), true),
};

/**
 * Runs the rebuild once on a database whose keys are not complete (one written before keys existed, or a fresh
 * one): at start, before the app serves, so that from then on every look-up is by key. Answers whether it ran.
 */
export async function ensureMemberKeys(): Promise<boolean> {
  if (await memberKeys.complete()) return false;
  await memberKeysState.rebuild();
  return true;
}
