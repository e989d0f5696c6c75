/**
 * A member's pieces in "Download my data" and "Delete my account": the pieces as the member sees them, and
 * removing each with its files.
 */
import { Types } from 'mongoose';
import { publicPages } from '../../lib/public-pages';
import { anyOf, readById } from '../../lib/query';
import type { Schemas } from '../../lib/openapi-types';
import { type MediaService, type UploadDoc, uploadReads } from '../media';
import { adjustContentsCount } from '../users';
import { ownerChainDown, ownerChainEnd } from './contents.chains';
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

/** How many entries of the member's list are read at once (each by `_id`), and then their pieces. */
const EXPORT_READS_AT_ONCE = 100;

/**
 * Every piece of the member, the oldest first, as the member sees it (private ones included). Found through their
 * list of pieces (contents.chains.ts, the one their profile pages through), then each piece read by `_id`: a filter
 * on the owner would read every piece there is on FerretDB (the test and dev database). The list names every piece
 * that was ever theirs, so a piece is kept only if it is still theirs (not sold or removed since), and once (a piece
 * sold and bought back is named twice). A piece whose process stopped between its insert and its list entry is
 * missing, as on their profile, until `npm run rebuild -- feed-lists` writes the member's list again from the pieces.
 */
export async function piecesExportOf(ownerId: string, contents: Pick<ContentsService, 'dto'>): Promise<Schemas['Content'][]> {
  const owner = new Types.ObjectId(ownerId);
  const seen = new Set<string>();
  const pieces: ContentDoc[] = [];
  for (let from = await ownerChainEnd(owner); from >= 1; from -= EXPORT_READS_AT_ONCE) {
    const entries = await ownerChainDown(owner, undefined, from, EXPORT_READS_AT_ONCE);
    const fresh = [...new Set(entries.map(({ entry }) => String(entry.contentId)))].filter((id) => !seen.has(id));
    fresh.forEach((id) => seen.add(id));
    const read = await Promise.all(fresh.map((id) => readById<ContentDoc>(ContentModel, new Types.ObjectId(id))));
    pieces.push(...read.filter((piece): piece is ContentDoc => Boolean(piece?.ownerId.equals(owner))));
  }
  // The list is in the order the pieces became theirs; the export has always been by id (oldest published first).
  pieces.sort((a, b) => (String(a._id) < String(b._id) ? -1 : 1));
  // Read as their owner: the counts they hide from others are theirs to see.
  return Promise.all(pieces.map((piece) => contents.dto(piece, { userId: ownerId, role: 'user' })));
}
