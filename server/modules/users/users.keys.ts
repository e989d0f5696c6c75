/**
 * Member keys: one document per value that names a member (their email, their username, their Google or Facebook
 * id), whose `_id` is the value itself (`email:ana@example.com`, `username:ana_b`, `google:1234`), holding the
 * member's id. On the embedded database only a read by exact `_id` is indexed, so sign-in, sign-up's checks, a
 * profile by username and a social sign-in find the member in two reads by `_id` (the key, then the account)
 * however many members there are, where a filter on `users.email` would read every account.
 *
 * A key is claimed by inserting it before the account takes the value (sign-up, rename, email change, a social id
 * linked) and marked held once the account has it; the value the account gave up loses its key after. The insert
 * is the exclusive step: of two sign-ups with one address, or two members taking one name, in any processes, one
 * inserts the key and the other is told the value is taken. The unique indexes on `users` stay as a second guard.
 *
 * A key is only a pointer: every read checks that the account it names still has the value, so a key left behind
 * (a process that stopped between the key and the account) answers nothing, and a claim may take it over once it
 * is clearly abandoned. The `member-keys` kept state (memberKeysState) compares the keys with the accounts and
 * rebuilds them in bulk. A database written before keys existed has none: until the rebuild has run once (it
 * marks the collection complete; the app runs it at start when the mark is missing), a read that finds no key
 * falls back to the account's field and writes the key it finds.
 */
import { Schema, model, Types } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { noteDifference, type KeptState, type KeptStateReport } from '../../lib/kept-state';
import { anyOf, readById } from '../../lib/query';
import { UserModel, type UserDoc } from './users.model';

const memberKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    /** 'claimed' from the insert until the account has the value, then 'held'. */
    state: { type: String, enum: ['claimed', 'held'], required: true },
    /** When it was claimed: a claim whose account never took the value is abandoned after CLAIM_GRACE_MS. */
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
export const MemberKeyModel = model('MemberKey', memberKeySchema, 'member_keys');

interface MemberKeyDoc {
  _id: string;
  userId: Types.ObjectId;
  state: 'claimed' | 'held';
  at: Date;
}

/** The values that name a member, each with the account field that holds it. */
export type MemberKeyKind = 'email' | 'username' | 'google' | 'facebook';
const FIELD_OF = { email: 'email', username: 'username', google: 'googleId', facebook: 'facebookId' } as const satisfies Record<MemberKeyKind, keyof UserDoc>;
const KINDS = Object.keys(FIELD_OF) as MemberKeyKind[];

const keyId = (kind: MemberKeyKind, value: string) => `${kind}:${value}`;

/**
 * The document the rebuild writes last: every account has its keys, so a read that finds no key may answer "no
 * such member" without looking at the accounts. Its id has no `:`, so no key can be it.
 */
const COMPLETE_MARK = 'complete';

/**
 * How long a claim whose account does not (yet) have the value is taken as a change in progress: far longer than a
 * sign-up or a rename takes between its claim and its account write, short enough that a process that stopped
 * between them keeps a value from others only briefly.
 */
export const CLAIM_GRACE_MS = 60_000;

/** Whether the account has `value` as its `kind` now. */
const holds = (user: Partial<UserDoc> | null, kind: MemberKeyKind, value: string) => Boolean(user && user[FIELD_OF[kind]] === value);

/** Whether every account has its keys (the rebuild has run once on this database). */
async function keysComplete(): Promise<boolean> {
  return Boolean(await readById(MemberKeyModel, COMPLETE_MARK, { _id: 1 }));
}

/**
 * The member whose `kind` is `value` (already normalized: emails trimmed and lower-cased, usernames as kept), or
 * null. Two reads by `_id`; on a database whose keys are not complete yet, a miss reads the accounts and keeps
 * the key it finds.
 */
export async function memberByKey(kind: MemberKeyKind, value: string): Promise<UserDoc | null> {
  const key = await readById<MemberKeyDoc>(MemberKeyModel, keyId(kind, value), { userId: 1 });
  if (key) {
    const user = await readById<UserDoc>(UserModel, key.userId);
    if (holds(user, kind, value)) return user;
  }
  if (await keysComplete()) return null;
  const found = await UserModel.findOne({ [FIELD_OF[kind]]: value }).lean<UserDoc>();
  if (found) await keepKey(kind, value, found._id);
  return found;
}

/** Writes the held key of a value an account has (the fallback read's healing, and the start of a claim's end). */
async function keepKey(kind: MemberKeyKind, value: string, userId: Types.ObjectId): Promise<void> {
  await MemberKeyModel.collection.replaceOne({ _id: keyId(kind, value) as never }, { userId, state: 'held', at: new Date() }, { upsert: true });
}

/**
 * Claims `value` as `kind` for the account `userId` by inserting its key; false when another account has it or
 * is taking it now. A key of this account already is claimed. A key whose account does not have the value and that
 * is older than the grace (or held, so its change is over) is left over: it is removed, naming its member, and the
 * insert tried again, so of two takers of a left-over key one wins.
 */
export async function claimMemberKey(kind: MemberKeyKind, value: string, userId: Types.ObjectId): Promise<boolean> {
  const _id = keyId(kind, value);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await MemberKeyModel.collection.insertOne({ _id: _id as never, userId, state: 'claimed', at: new Date() });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const key = await readById<MemberKeyDoc>(MemberKeyModel, _id);
    if (!key) continue;
    if (key.userId.equals(userId)) return true;
    const holder = await readById<UserDoc>(UserModel, key.userId, { [FIELD_OF[kind]]: 1 });
    if (holds(holder, kind, value)) return false;
    const inProgress = key.state === 'claimed' && Date.now() - new Date(key.at).getTime() < CLAIM_GRACE_MS;
    if (inProgress) return false;
    await MemberKeyModel.collection.deleteOne({ _id: _id as never, userId: key.userId });
  }
  return false;
}

/** Marks the account's claimed key held: the account has the value now. */
export async function confirmMemberKey(kind: MemberKeyKind, value: string, userId: Types.ObjectId): Promise<void> {
  await MemberKeyModel.collection.updateOne({ _id: keyId(kind, value) as never, userId }, { $set: { state: 'held' } });
}

/** Removes the account's key of a value it gave up, or whose claim failed (another account's key stays). */
export async function releaseMemberKey(kind: MemberKeyKind, value: string | null | undefined, userId: Types.ObjectId): Promise<void> {
  if (!value) return;
  await MemberKeyModel.collection.deleteOne({ _id: keyId(kind, value) as never, userId });
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

const BATCH = 1_000;

/** Every key the accounts call for, by id, with its member's id. */
async function expectedKeys(): Promise<Map<string, string>> {
  const expected = new Map<string, string>();
  const cursor = UserModel.collection.find({}, { projection: { email: 1, username: 1, googleId: 1, facebookId: 1 }, batchSize: BATCH });
  for await (const user of cursor) {
    for (const [kind, value] of keyedValuesOf(user)) expected.set(keyId(kind, value), String(user._id));
  }
  return expected;
}

/**
 * Compares the keys with the accounts; with `write`, puts them right in bulk (missing keys inserted, wrong ones
 * replaced, left-over ones removed, then the collection marked complete).
 */
async function compareMemberKeys(write: boolean): Promise<KeptStateReport> {
  const expected = await expectedKeys();
  const differences: string[] = [];
  const wrong: { _id: string; userId: string }[] = [];
  const extra: string[] = [];
  const flushWrong = async () => {
    if (!write || !wrong.length) return;
    const now = new Date();
    await MemberKeyModel.collection.bulkWrite(
      wrong.splice(0).map(({ _id, userId }) => ({
        replaceOne: { filter: { _id: _id as never }, replacement: { userId: new Types.ObjectId(userId), state: 'held', at: now }, upsert: true },
      })),
      { ordered: false },
    );
  };
  const flushExtra = async () => {
    if (write && extra.length) await MemberKeyModel.deleteMany({ _id: anyOf(extra.splice(0)) });
  };
  let checked = 0;
  const seen = new Set<string>();
  const cursor = MemberKeyModel.collection.find({}, { batchSize: BATCH });
  for await (const raw of cursor) {
    const key = raw as unknown as MemberKeyDoc;
    if (key._id === COMPLETE_MARK) continue;
    checked++;
    seen.add(key._id);
    const owner = expected.get(key._id);
    if (owner === undefined) {
      noteDifference(differences, `${key._id}: kept for ${String(key.userId)}, which does not have it`);
      extra.push(key._id);
    } else if (owner !== String(key.userId) || key.state !== 'held') {
      noteDifference(differences, `${key._id}: kept for ${String(key.userId)} (${key.state}), held by ${owner}`);
      wrong.push({ _id: key._id, userId: owner });
    }
    if (wrong.length >= BATCH) await flushWrong();
    if (extra.length >= BATCH) await flushExtra();
  }
  await flushWrong();
  await flushExtra();
  let missing: { _id: string; userId: Types.ObjectId; state: 'held'; at: Date }[] = [];
  const now = new Date();
  const flushMissing = async () => {
    if (write && missing.length) await MemberKeyModel.collection.insertMany(missing.splice(0) as never[], { ordered: false });
    missing = [];
  };
  for (const [_id, userId] of expected) {
    if (seen.has(_id)) continue;
    checked++;
    noteDifference(differences, `${_id}: no key, held by ${userId}`);
    missing.push({ _id, userId: new Types.ObjectId(userId), state: 'held', at: now });
    if (missing.length >= BATCH) await flushMissing();
  }
  await flushMissing();
  if (write) {
    await MemberKeyModel.collection.replaceOne({ _id: COMPLETE_MARK as never }, { at: now }, { upsert: true });
  } else if (!(await keysComplete())) {
    noteDifference(differences, 'the keys are not marked complete: the rebuild has not run on this database');
  }
  return { checked, differences };
}

/** The member keys as a kept state (`npm run rebuild -- member-keys`). */
export const memberKeysState: KeptState = {
  name: 'member-keys',
  describe: "Each member's email, username and Google and Facebook ids as key documents (member_keys), rebuilt from the accounts.",
  check: () => compareMemberKeys(false),
  rebuild: () => compareMemberKeys(true),
};

/**
 * Runs the rebuild once on a database whose keys are not complete (one written before keys existed, or a fresh
 * one): at start, before the app serves, so that from then on every look-up is by key. Answers whether it ran.
 */
export async function ensureMemberKeys(): Promise<boolean> {
  if (await keysComplete()) return false;
  await memberKeysState.rebuild();
  return true;
}
