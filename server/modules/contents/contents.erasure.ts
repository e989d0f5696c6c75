/**
 * A member's pieces in "Download my data" and "Delete my account": the pieces as the member sees them, and
 * removing each with its files.
 */
import { Types } from 'mongoose';
import { publicPages } from '../../lib/public-pages';
import { anyOf } from '../../lib/query';
import type { Schemas } from '../../lib/openapi-types';
import { type MediaService, type UploadDoc, uploadReads } from '../media';
import { adjustContentsCount } from '../users';
import { releasePieceLink } from './contents.links';
import { noteSupportChange } from './contents.supported';
import { ContentModel, ContentVersionModel, type ContentDoc, type ContentVersionDoc } from './contents.model';
import { changeTitleTerms } from './contents.title-index';
import type { ContentsService } from './contents.service';

type Removable = Pick<ContentDoc, '_id' | 'ownerId' | 'payerId' | 'slug' | 'listed' | 'titleWords' | 'photoUploadId' | 'audioUploadId'>;

/** The uploads a piece's files come from. */
export const uploadsOf = (content: Pick<ContentDoc, 'photoUploadId' | 'audioUploadId'>) =>
  [content.photoUploadId, content.audioUploadId].filter((id): id is Types.ObjectId => Boolean(id));

/** Removes a piece and its files, its earlier files (versions) included. The listing fee is not refunded. */
export async function removePiece(content: Removable, media: Pick<MediaService, 'remove'>): Promise<void> {
  const { deletedCount } = (await changeTitleTerms(content._id, content, {}, () => ContentModel.deleteOne({ _id: content._id })))!;
  await releasePieceLink(content.ownerId, content.slug, content._id);
  if (deletedCount && content.listed) await adjustContentsCount(content.ownerId, -1);
  // Its listing fee no longer supports anything: the payer's collections figure is counted again. (A process stopped
  // just before this leaves the figure counting it until the wallet-collections rebuild, whose check reports it.)
  if (deletedCount && content.payerId) await noteSupportChange(content._id, content.payerId);
  publicPages.clear();
  // Read after the piece is gone: a replacement under way now finds no piece, and the housekeeping job settles it.
  const versions = await ContentVersionModel.find({ contentId: content._id }, { uploadId: 1, replacedBy: 1 }).lean<ContentVersionDoc[]>();
  const versionUploads = versions.flatMap((version) => [version.uploadId, version.replacedBy]);
  await media.remove(await uploadReads.many<UploadDoc>({ _id: anyOf([...uploadsOf(content), ...versionUploads]) }));
  await ContentVersionModel.deleteMany({ contentId: content._id });
}

/** Removes every piece of the member with its files; safe to repeat (what was removed before is not found again). */
export async function removePiecesOf(ownerId: string, media: Pick<MediaService, 'remove'>): Promise<number> {
  const pieces = await ContentModel.find(
    { ownerId: new Types.ObjectId(ownerId) },
    { ownerId: 1, payerId: 1, slug: 1, listed: 1, titleWords: 1, photoUploadId: 1, audioUploadId: 1 },
  ).lean<Removable[]>();
  for (const piece of pieces) await removePiece(piece, media);
  return pieces.length;
}

/**
 * The pieces a leaving member paid the listing fee of, on someone else's work, go on as their owner's own: the
 * owner becomes the payer, so every knack from then on pays the owner in full (an owner who paid gets it all),
 * instead of a 10% share landing on an account nobody holds. What was earned before stays in the ledger.
 */
export async function handOverSupportedPieces(payerId: string): Promise<number> {
  const supported = await ContentModel.find({ payerId: new Types.ObjectId(payerId) }, { ownerId: 1 }).lean<Pick<ContentDoc, '_id' | 'ownerId'>[]>();
  for (const piece of supported) {
    await ContentModel.updateOne({ _id: piece._id }, { $set: { payerId: piece.ownerId } });
    await noteSupportChange(piece._id, payerId);
  }
  if (supported.length) publicPages.clear();
  return supported.length;
}

/** Every piece of the member, the oldest first, as the member sees it (private ones included). */
export async function piecesExportOf(ownerId: string, contents: Pick<ContentsService, 'dto'>): Promise<Schemas['Content'][]> {
  const pieces = await ContentModel.find({ ownerId: new Types.ObjectId(ownerId) })
    .sort({ _id: 1 })
    .lean<ContentDoc[]>();
  // Read as their owner: the counts they hide from others are theirs to see.
  return Promise.all(pieces.map((piece) => contents.dto(piece, { userId: ownerId, role: 'user' })));
}
