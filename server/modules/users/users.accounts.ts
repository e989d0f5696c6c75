/**
 * The account writes of signing up and signing in, made here because this module owns `users`: auth decides
 * when (a sign-up, an emailed link opened, a reset, a social sign-in) and these functions change the account.
 * Raising `tokenVersion` ends every access token issued before (the session check compares it).
 */
import { updateWhileStill } from '../../lib/guarded-write';
import { Types } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { wordsOf } from '../../lib/search';
import {
  claimAccountKeys,
  claimMemberKey,
  confirmAccountKeys,
  confirmMemberKey,
  keyTakenError,
  memberByKey,
  releaseAccountKeys,
  releaseMemberKey,
} from './users.keys';
import { UserModel, type UserDoc } from './users.model';
import { changeNameTerms } from './users.name-index';
import { normalizeEmail } from './users.service';

/** The fields a new account starts with; `username` and `email` are unique (a taken one throws the duplicate-key error). */
export type NewAccount = Pick<UserDoc, 'email' | 'username' | 'firstName' | 'lastName' | 'fullName' | 'isActive'> &
  Partial<Pick<UserDoc, 'passwordHash' | 'image' | 'googleId' | 'facebookId'>>;

export async function createAccount(fields: NewAccount): Promise<UserDoc> {
  return insertAccount({ ...fields, _id: new Types.ObjectId() });
}

/**
 * Inserts an account after claiming its keys (users.keys.ts): a value another account has, or is taking at this
 * moment, throws the duplicate-key error naming its field, and nothing is written. The keys are marked held once
 * the account is in; if its insert fails (the unique indexes are the second guard), its claims are given back.
 */
async function insertAccount(fields: NewAccount & Partial<UserDoc> & { _id: Types.ObjectId }): Promise<UserDoc> {
  const taken = await claimAccountKeys(fields);
  if (taken) throw keyTakenError(taken);
  let user: UserDoc;
  try {
    user = (await UserModel.create(fields)).toObject();
  } catch (err) {
    await releaseAccountKeys(fields);
    throw err;
  }
  await confirmAccountKeys(user);
  return user;
}

/** Removes an account that was never used (a sign-up whose activation mail could not be sent), and its keys. */
export async function deleteAccount(userId: Types.ObjectId): Promise<void> {
  const user = await UserModel.findById(userId, { email: 1, username: 1, googleId: 1, facebookId: 1 }).lean<UserDoc>();
  await UserModel.deleteOne({ _id: userId });
  if (user) await releaseAccountKeys(user);
}

export async function markActivationSent(userId: Types.ObjectId, at = new Date()): Promise<void> {
  await UserModel.updateOne({ _id: userId }, { $set: { activationSentAt: at } });
}

/** Activates the account (its emailed link was opened); answers it, or null when it is gone. */
export function activateAccount(userId: Types.ObjectId): Promise<UserDoc | null> {
  return UserModel.findByIdAndUpdate(userId, { $set: { isActive: true } }, { new: true }).lean<UserDoc>();
}

/** Sets a new password hash, activates the account (the reset proved the address) and ends earlier access tokens. */
export async function setPasswordHash(userId: Types.ObjectId, passwordHash: string): Promise<void> {
  await UserModel.updateOne({ _id: userId }, { $set: { passwordHash, isActive: true }, $inc: { tokenVersion: 1 } });
}

/** Ends every access token issued to the member so far. */
export async function revokeAccessTokens(userId: Types.ObjectId | string): Promise<void> {
  await UserModel.updateOne({ _id: userId }, { $inc: { tokenVersion: 1 } });
}

/**
 * Links a social provider's id. `takeOver`: the account was never activated, so the provider's verified email is
 * the first proof of the address; it is activated, its password cleared and its earlier access tokens ended.
 */
export async function linkSocialId(userId: Types.ObjectId, idField: 'googleId' | 'facebookId', providerId: string, takeOver: boolean): Promise<UserDoc | null> {
  const kind = idField === 'googleId' ? 'google' : 'facebook';
  // The provider id is keyed (sign-in by it reads its key): another account linked to it keeps it.
  if (!(await claimMemberKey(kind, providerId, userId))) throw keyTakenError(kind);
  const update = takeOver
    ? { $set: { [idField]: providerId, isActive: true, passwordHash: null }, $inc: { tokenVersion: 1 } }
    : { $set: { [idField]: providerId } };
  const before = await UserModel.findByIdAndUpdate(userId, update).lean<UserDoc>();
  if (!before) {
    await releaseMemberKey(kind, providerId, userId);
    return null;
  }
  await confirmMemberKey(kind, providerId, userId);
  if (before[idField] !== providerId) await releaseMemberKey(kind, before[idField], userId);
  return UserModel.findById(userId).lean<UserDoc>();
}

/** The account linked to a Google or Facebook id, read by its key. */
export function memberBySocialId(idField: 'googleId' | 'facebookId', providerId: string): Promise<UserDoc | null> {
  return memberByKey(idField === 'googleId' ? 'google' : 'facebook', providerId);
}

/**
 * A waiting account's username: a character no member can choose (usernames are letters, digits, `_` and `.`), so it
 * never takes a name from anyone, and no profile link reaches it.
 */
const waitingUsername = (id: Types.ObjectId) => `~${id.toHexString()}`;

/**
 * The account of `email` for a visitor's upload: a new waiting account, or the one the address has. The insert on
 * the unique email is what makes one address one account: of two uploads from one address at once, in any
 * processes, one inserts and the other finds the account it made.
 */
export async function waitingAccountFor(email: string, chart: string): Promise<{ user: UserDoc; created: boolean }> {
  const address = normalizeEmail(email);
  const _id = new Types.ObjectId();
  try {
    const user = await insertAccount({
      _id,
      email: address,
      username: waitingUsername(_id),
      firstName: '',
      lastName: '',
      fullName: '',
      isActive: false,
      passwordHash: null,
      awaitsRegistration: true,
      registrationChart: chart,
    });
    return { user, created: true };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const user = await accountBeingMadeFor(address);
    if (!user) throw err;
    if (user.awaitsRegistration && user.registrationChart !== chart) {
      await updateWhileStill(UserModel, user._id, { awaitsRegistration: true }, { $set: { registrationChart: chart } });
      return { user: { ...user, registrationChart: chart }, created: false };
    }
    return { user, created: false };
  }
}

/** How often, and how many times, an upload whose address another upload is claiming looks for that account. */
const CLAIMED_ACCOUNT_POLL_MS = 50;
const CLAIMED_ACCOUNT_POLLS = 40;

/**
 * The account of an address whose key another call holds: found at once when made, else looked for again for a
 * short while, as a claim is followed by its account's insert within milliseconds.
 */
async function accountBeingMadeFor(address: string): Promise<UserDoc | null> {
  for (let poll = 0; poll < CLAIMED_ACCOUNT_POLLS; poll++) {
    const user = await memberByKey('email', address);
    if (user) return user;
    await new Promise((resolve) => setTimeout(resolve, CLAIMED_ACCOUNT_POLL_MS));
  }
  return null;
}

/**
 * Registers a waiting account (its mailed link was opened): its username, its password hash, active. Answers the
 * account, or null when it is not waiting (any more). A username taken meanwhile throws the duplicate-key error.
 */
export async function registerWaitingAccount(userId: Types.ObjectId, username: string, passwordHash: string): Promise<UserDoc | null> {
  if (!(await claimMemberKey('username', username, userId))) throw keyTakenError('username');
  const waiting = await UserModel.findById(userId, { username: 1, searchWords: 1 }).lean<Pick<UserDoc, 'username' | 'searchWords'>>();
  const searchWords = wordsOf(username, username);
  let registered: UserDoc | null;
  try {
    registered =
      (await changeNameTerms(userId, waiting ?? {}, { username, searchWords }, () =>
        UserModel.findOneAndUpdate(
          { _id: userId, awaitsRegistration: true },
          {
            $set: { username, fullName: username, passwordHash, isActive: true, awaitsRegistration: false, registrationChart: null, searchWords },
            $inc: { tokenVersion: 1 },
          },
          { new: true },
        ).lean<UserDoc>(),
      )) ?? null;
  } catch (err) {
    await releaseMemberKey('username', username, userId);
    throw err;
  }
  if (!registered) {
    await releaseMemberKey('username', username, userId);
    return null;
  }
  await Promise.all([confirmMemberKey('username', username, userId), releaseMemberKey('username', waitingUsername(userId), userId)]);
  return registered;
}
