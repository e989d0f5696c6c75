/** Removing a member's API keys when their account is deleted: the keys and their places go. */
import { Types } from 'mongoose';
import { ApiKeyModel, ApiKeySlotModel } from './api-keys.model';

/** Removes every key the member made, revoked ones too, and their places; safe to repeat. */
export async function removeApiKeysOf(userId: string): Promise<number> {
  const member = { userId: new Types.ObjectId(userId) };
  const [keys] = await Promise.all([ApiKeyModel.deleteMany(member), ApiKeySlotModel.deleteMany(member)]);
  return keys.deletedCount;
}
