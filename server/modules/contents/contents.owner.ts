/** The owner's username as the pieces keep a copy of it (their share links are `/{ownerUsername}-{slug}`). */
import type { Types } from 'mongoose';
import { publicPages } from '../../lib/public-pages';
import { ours } from '../../lib/query';
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

/**
 * Hands a piece to a new owner (a sale settled on the Stellar network): from now on its knacks credit them, and its
 * share link is under their username. Its slug is kept unless the new owner already has a piece by it. Setting the
 * owner it already has changes nothing, so a settlement seen twice, or finished after a crash, ends the same.
 */
export async function transferOwner(contentId: Types.ObjectId, newOwner: { id: Types.ObjectId; username: string; fullName: string }): Promise<void> {
  const piece = await ContentModel.findById(contentId, { ownerId: 1, slug: 1 }).lean<{ ownerId: Types.ObjectId; slug: string }>();
  if (!piece || String(piece.ownerId) === String(newOwner.id)) return;
  const taken = await ContentModel.exists(ours({ ownerUsername: newOwner.username, slug: piece.slug, _id: { $ne: contentId } }));
  const slug = taken ? `${piece.slug}-${String(contentId).slice(-6)}` : piece.slug;
  await ContentModel.updateOne({ _id: contentId }, { $set: { ownerId: newOwner.id, ownerUsername: newOwner.username, ownerName: newOwner.fullName, slug } });
  publicPages.clear();
}
