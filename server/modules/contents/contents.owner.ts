/** The owner's username as the pieces keep a copy of it (their share links are `/{ownerUsername}-{slug}`). */
import { Schema, model, type Types } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { publicPages } from '../../lib/public-pages';
import { insertWhole, readById } from '../../lib/query';
import { notePieceOwned } from './contents.chains';
import { claimSlugOrOwn, confirmPieceLink, releasePieceLink } from './contents.links';
import { ContentModel, contentReads, type ContentDoc } from './contents.model';
import { noteSupportChange } from './contents.supported';

/**
 * The share links a piece had under an owner it left (`_id` = `{username}-{slug}`, lower case), so that a link shared
 * before a sale still leads to the piece. A piece that takes the same link later is found first: the link is its now.
 */
const formerLinkSchema = new Schema(
  { _id: { type: String, required: true }, contentId: { type: Schema.Types.ObjectId, required: true } },
  { versionKey: false },
);
export const FormerLinkModel = model<{ _id: string; contentId: Types.ObjectId }>('ContentFormerLink', formerLinkSchema, 'content_former_links');

const linkKey = (username: string, slug: string) => `${username}-${slug}`.toLowerCase();

/** The piece a link named before the piece changed hands, or null. */
export async function pieceByFormerLink(username: string, slug: string): Promise<ContentDoc | null> {
  const former = await readById<{ contentId: Types.ObjectId }>(FormerLinkModel, linkKey(username, slug));
  return former ? contentReads.byId<ContentDoc>(former.contentId) : null;
}

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
 * share link is under their username (the old link is kept as a former link that leads to it). Its slug is kept unless the new owner already has a piece by it. Setting the
 * owner it already has changes nothing, so a settlement seen twice, or finished after a crash, ends the same.
 */
export async function transferOwner(contentId: Types.ObjectId, newOwner: { id: Types.ObjectId; username: string; fullName: string }): Promise<void> {
  const piece = await ContentModel.findById(contentId, { ownerId: 1, payerId: 1, ownerUsername: 1, slug: 1, type: 1 }).lean<{
    type: string;
    ownerId: Types.ObjectId;
    payerId: Types.ObjectId | null;
    ownerUsername: string;
    slug: string;
  }>();
  if (!piece) return;
  if (String(piece.ownerId) === String(newOwner.id)) {
    // Seen again, or finished after a crash: the change of hands may not have been noted for the payer yet.
    if (piece.payerId) await noteSupportChange(contentId, piece.payerId);
    return;
  }
  // Kept before the piece leaves its link, so that no moment exists in which the old link names nothing.
  try {
    await insertWhole(FormerLinkModel, { _id: linkKey(piece.ownerUsername, piece.slug), contentId });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await FormerLinkModel.updateOne({ _id: linkKey(piece.ownerUsername, piece.slug) }, { $set: { contentId } });
  }
  // The link under the new owner is claimed by insert (contents.links.ts); the old one's key goes after the move.
  const slug = await claimSlugOrOwn(newOwner.id, piece.slug, contentId);
  await ContentModel.updateOne({ _id: contentId }, { $set: { ownerId: newOwner.id, ownerUsername: newOwner.username, ownerName: newOwner.fullName, slug } });
  // On the new owner's list from now (the former owner's list skips it: it reads each piece's owner).
  await notePieceOwned({ _id: contentId, ownerId: newOwner.id, type: piece.type });
  await Promise.all([confirmPieceLink(newOwner.id, slug, contentId), releasePieceLink(piece.ownerId, piece.slug, contentId)]);
  // Whose the piece is decides whether its listing fee supports someone else's work: the payer's collections figure
  // is counted again.
  if (piece.payerId) await noteSupportChange(contentId, piece.payerId);
  publicPages.clear();
}
