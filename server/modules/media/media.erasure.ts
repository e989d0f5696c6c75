/** Removing every file a member uploaded (pieces' files, profile photo and header, uploads never used) with their account. */
import { Types } from 'mongoose';
import { UploadModel, type UploadDoc } from './media.model';
import type { MediaService } from './media.service';

const BATCH = 200;

/** Removes the member's uploads and their stored files, a batch at a time; safe to repeat. Answers how many. */
export async function removeUploadsOf(ownerId: string, media: Pick<MediaService, 'remove'>): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await UploadModel.find({ ownerId: new Types.ObjectId(ownerId) }, { key: 1, thumbKeys: 1, waveformKey: 1 })
      .limit(BATCH)
      .lean<UploadDoc[]>();
    if (!batch.length) return removed;
    await media.remove(batch);
    removed += batch.length;
  }
}
