/**
 * The account writes of signing up and signing in, made here because this module owns `users`: auth decides
 * when (a sign-up, an emailed link opened, a reset, a social sign-in) and these functions change the account.
 * Raising `tokenVersion` ends every access token issued before (the session check compares it).
 */
import type { Types } from 'mongoose';
import { UserModel, type UserDoc } from './users.model';

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
