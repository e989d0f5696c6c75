/** The owner's username as the pieces keep a copy of it (their share links are `/{ownerUsername}-{slug}`). */
import type { Types } from 'mongoose';
import { publicPages } from '../../lib/public-pages';
import { ContentModel } from './contents.model';

/**
 * Copies a member's new username onto their pieces, so that their share links use it from now on (the links with
 * the old name lead here too: the link calls resolve a former username). Setting the name they already have
 * changes nothing, so a change that was cut short is completed by making it again.
 */
export async function renameOwner(ownerId: Types.ObjectId, username: string): Promise<void> {
  const { modifiedCount } = await ContentModel.updateMany({ ownerId }, { $set: { ownerUsername: username } });
  if (modifiedCount) publicPages.clear();
}
