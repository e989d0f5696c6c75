/**
 * Brings pieces and members saved before the feeds existed up to the current shape (their copy of the
 * files, share slug, search words, ranking keys and counters). Idempotent: run on every start.
 */
import mongoose from 'mongoose';
import { slugOf, wordsOf } from '../../lib/search';
import { initialRanking } from './contents.ranking';
import { type UploadDoc, uploadReads } from '../media';
import { setMemberTotals, type UserDoc, userReads } from '../users';
import { ContentModel, type ContentDoc } from './contents.model';
import { mediaOf } from './contents.files';
import { changeTitleTerms } from './contents.title-index';

const missing = (field: string) => ({ [field]: mongoose.trusted({ $exists: false }) });

export async function migrateContents(): Promise<number> {
  // Pieces written before `media` existed: read raw, as the old documents are stored.
  const old = await ContentModel.collection
    .find<ContentDoc & { photoUploadId: unknown; audioUploadId?: unknown; setting?: { public?: boolean }; isHide?: boolean }>(missing('media'))
    .toArray();
  for (const piece of old) {
    const [owner, photo, audio] = await Promise.all([
      userReads.byId<UserDoc>(piece.ownerId),
      uploadReads.byId<UploadDoc>(piece.photoUploadId),
      piece.audioUploadId ? uploadReads.byId<UploadDoc>(piece.audioUploadId) : null,
    ]);
    if (!owner || !photo) continue;
    const uploadedAt: Date = piece.uploadedAt ?? piece._id.getTimestamp();
    const searchable = { titleWords: wordsOf(piece.title), listed: Boolean(piece.setting?.public ?? true) && !piece.isHide };
    await changeTitleTerms(piece._id, {}, searchable, () =>
      ContentModel.collection.updateOne(
        { _id: piece._id },
        {
          $set: {
            ownerUsername: owner.username,
            ownerName: owner.fullName,
            slug: `${slugOf(piece.title) || piece._id}-${String(piece._id).slice(-6)}`,
            ...searchable,
            media: mediaOf(photo, audio),
            featuredAt: null,
            ...initialRanking(uploadedAt, owner.followersCount ?? 0),
          },
        },
      ),
    );
  }
  if (old.length) {
    for (const ownerId of new Set(old.map((p) => String(p.ownerId)))) {
      const contentsCount = await ContentModel.countDocuments({ ownerId, listed: true });
      await setMemberTotals([{ userId: ownerId, totals: { contentsCount } }]);
    }
  }
  return old.length;
}
