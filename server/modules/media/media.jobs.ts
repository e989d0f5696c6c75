/**
 * Media housekeeping, every 10 minutes: finish the waveforms of uploads left 'processing' by a process that
 * stopped, remove uploads nobody used within a day, and the stored files a failed upload left behind. Each step is safe to run twice, even at once.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import mongoose from 'mongoose';
import type { Storage } from '../../integrations/storage';
import type { Logger } from '../../lib/logger';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { anyOf } from '../../lib/query';
import { LeftFileModel, UploadClaimModel, uploadClaimId, UploadModel, type UploadDoc } from './media.model';
import type { MediaService } from './media.service';

/** A waveform is computed within seconds of the upload; one still 'processing' this long after was abandoned. */
export const STALE_PROCESSING_MS = 15 * 60_000;
/** An upload not saved into a piece or a profile within this time never will be. */
export const UNUSED_UPLOAD_MS = 24 * 60 * 60_000;
/** Who claims an upload being removed, so that no piece can take it meanwhile. */
const REMOVING = 'housekeeping:remove';
const BATCH = 200;

export interface MediaHousekeepingDeps {
  media: Pick<MediaService, 'storeWaveform' | 'remove'>;
  storage: Storage;
  logger: Logger;
}

const olderThan = (ms: number) => mongoose.trusted({ $lt: new Date(Date.now() - ms) });

export async function mediaHousekeeping({ media, storage, logger }: MediaHousekeepingDeps) {
  const removed = await removeUnused(media);
  const recovered = await recoverProcessing(media, storage, logger);
  const leftFilesRemoved = await removeLeftFiles(storage);
  return { removed, recovered, leftFilesRemoved };
}

/**
 * Removes the stored files an upload that failed half-way left behind (listed in `storage_left_files`): from the
 * storage first, then from the list, so that a run the storage fails again leaves them listed for the next one.
 */
async function removeLeftFiles(storage: Storage): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await LeftFileModel.find({}, { _id: 1 }).limit(BATCH).lean<{ _id: string }[]>();
    if (!batch.length) return removed;
    const keys = batch.map((file) => file._id);
    await storage.delete(keys);
    await LeftFileModel.deleteMany({ _id: anyOf(keys) });
    removed += keys.length;
  }
}

async function removeUnused(media: MediaHousekeepingDeps['media']): Promise<number> {
  // Each old unused upload is claimed like a piece claims it (an insert), so that a piece saved at this moment
  // and this run cannot both take it: whichever inserts the claim first has it.
  const unused = await UploadModel.find({ usedBy: null, createdAt: olderThan(UNUSED_UPLOAD_MS) }, { _id: 1 }).lean<Pick<UploadDoc, '_id'>[]>();
  for (const { _id } of unused) {
    try {
      await UploadClaimModel.create({ _id: uploadClaimId(_id), usedBy: REMOVING, at: new Date() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      continue;
    }
    await UploadModel.updateOne({ _id }, { $set: { usedBy: REMOVING } });
  }
  let removed = 0;
  // Also finishes what a run that stopped half-way marked.
  for (;;) {
    const batch = await UploadModel.find({ usedBy: REMOVING }, { key: 1, thumbKeys: 1, waveformKey: 1 }).limit(BATCH).lean<UploadDoc[]>();
    if (!batch.length) return removed;
    await media.remove(batch);
    removed += batch.length;
  }
}

async function recoverProcessing(media: MediaHousekeepingDeps['media'], storage: Storage, logger: Logger): Promise<number> {
  const stale = { status: 'processing', updatedAt: olderThan(STALE_PROCESSING_MS) };
  const uploads = await UploadModel.find(stale, { key: 1, duration: 1 }).limit(BATCH).lean<UploadDoc[]>();
  let recovered = 0;
  for (const upload of uploads) {
    // Take it (updatedAt moves to now): a second run at the same time finds it no longer stale.
    const claimed = await UploadModel.updateOne({ _id: upload._id, ...stale }, { $set: { status: 'processing' } });
    if (!claimed.modifiedCount) continue;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'knack-waveform-'));
    try {
      const audioPath = path.join(dir, path.basename(upload.key));
      try {
        await pipeline(await storage.read(upload.key), createWriteStream(audioPath));
      } catch (err) {
        logger.error({ err, upload: String(upload._id) }, 'stored audio unreadable; upload marked failed');
        await UploadModel.updateOne({ _id: upload._id }, { $set: { status: 'failed' } });
        continue;
      }
      await media.storeWaveform(upload, audioPath);
      recovered++;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return recovered;
}
