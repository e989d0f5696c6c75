/**
 * The account writes of signing up and signing in, made here because this module owns `users`: auth decides
 * when (a sign-up, an emailed link opened, a reset, a social sign-in) and these functions change the account.
 * Raising `tokenVersion` ends every access token issued before (the session check compares it).
 */
import { Types } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { wordsOf } from '../../lib/search';
import { UserModel, type UserDoc } from './users.model';
import { changeNameTerms } from './users.name-index';
import { normalizeEmail } from './users.service';

/** The fields a new account starts with; `username` and `email` are unique (a taken one throws the duplicate-key error). */
export type NewAccount = Pick<UserDoc, 'email' | 'username' | 'firstName' | 'lastName' | 'fullName' | 'isActive'> &
  Partial<Pick<UserDoc, 'passwordHash' | 'image' | 'googleId' | 'facebookId'>>;

export async function createAccount(fields: NewAccount): Promise<UserDoc> {
  return (await UserModel.create(fields)).toObject();
}

/** Removes an account that was never used (a sign-up whose activation mail could not be sent). */
export async function deleteAccount(userId: Types.ObjectId): Promise<void> {
  await UserModel.deleteOne({ _id: userId });
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
export function linkSocialId(userId: Types.ObjectId, idField: 'googleId' | 'facebookId', providerId: string, takeOver: boolean): Promise<UserDoc | null> {
  const update = takeOver
    ? { $set: { [idField]: providerId, isActive: true, passwordHash: null }, $inc: { tokenVersion: 1 } }
    : { $set: { [idField]: providerId } };
  return UserModel.findByIdAndUpdate(userId, update, { new: true }).lean<UserDoc>();
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
    const user = await UserModel.create({
      _id,
      email: address,
      username: waitingUsername(_id),
      isActive: false,
      passwordHash: null,
      awaitsRegistration: true,
      registrationChart: chart,
    });
    return { user: user.toObject(), created: true };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const user = await UserModel.findOne({ email: address }).lean<UserDoc>();
    if (!user) throw err;
    if (user.awaitsRegistration && user.registrationChart !== chart) {
      await UserModel.updateOne({ _id: user._id, awaitsRegistration: true }, { $set: { registrationChart: chart } });
      return { user: { ...user, registrationChart: chart }, created: false };
    }
    return { user, created: false };
  }
}

/**
 * Registers a waiting account (its mailed link was opened): its username, its password hash, active. Answers the
 * account, or null when it is not waiting (any more). A username taken meanwhile throws the duplicate-key error.
 */
export async function registerWaitingAccount(userId: Types.ObjectId, username: string, passwordHash: string): Promise<UserDoc | null> {
  const waiting = await UserModel.findById(userId, { username: 1, searchWords: 1 }).lean<Pick<UserDoc, 'username' | 'searchWords'>>();
  const searchWords = wordsOf(username, username);
  const registered = await changeNameTerms(userId, waiting ?? {}, { username, searchWords }, () =>
    UserModel.findOneAndUpdate(
      { _id: userId, awaitsRegistration: true },
      {
        $set: { username, fullName: username, passwordHash, isActive: true, awaitsRegistration: false, registrationChart: null, searchWords },
        $inc: { tokenVersion: 1 },
      },
      { new: true },
    ).lean<UserDoc>(),
  );
  return registered ?? null;
}
