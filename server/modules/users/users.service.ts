import type { Types } from 'mongoose';
import { notFound } from '../../lib/errors';
import { inTurn } from '../../lib/in-turn';
import { UserExtModel, UserModel, type UserDoc, type UserExtDoc } from './users.model';

/** Spec §5: usernames are trimmed, lower-cased, with spaces as underscores. */
export function normalizeUsername(raw: string): string {
  return raw.trim().toLowerCase().replace(/\s+/g, '_');
}

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export async function findUserByEmail(email: string): Promise<UserDoc | null> {
  return UserModel.findOne({ email: normalizeEmail(email) }).lean<UserDoc>();
}

export async function emailExists(email: string): Promise<boolean> {
  return (await UserModel.exists({ email: normalizeEmail(email) })) !== null;
}

export async function usernameTaken(username: string): Promise<boolean> {
  return (await UserModel.exists({ username: normalizeUsername(username) })) !== null;
}

export async function getUser(id: string): Promise<UserDoc> {
  const user = await UserModel.findById(id).lean<UserDoc>();
  if (!user) throw notFound('User not found');
  return user;
}

export async function getUserExt(userId: string): Promise<UserExtDoc | null> {
  return UserExtModel.findOne({ userId }).lean<UserExtDoc>();
}

/**
 * Moves a member's count of listed pieces by `delta` (publishing, hiding, deleting). A kept total: the rankings
 * job recounts it from the listed pieces, should a bump be lost.
 */
export async function adjustContentsCount(ownerId: Types.ObjectId | string, delta: number): Promise<void> {
  await inTurn(`user:${ownerId}`, () => UserModel.updateOne({ _id: ownerId }, { $inc: { contentsCount: delta } }));
}
