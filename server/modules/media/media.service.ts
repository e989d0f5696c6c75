/**
 * Uploads: sniff, process (images re-encoded with thumbnails; audio decoded for its duration and waveform),
 * store through the storage driver, record. A failure removes whatever was already stored.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Types } from 'mongoose';
import type { Storage } from '../../integrations/storage';
import { MESSAGES } from '../../../generated/validation';
import { anyOf } from '../../lib/query';
import { AppError, ServiceUnavailable } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { isDuplicateKey } from '../../lib/duplicate-key';
import type { Schemas } from '../../lib/openapi-types';
import { AudioDecodeError, decodeAudio, DECODE_LIMITS, type DecodeLimits } from './audio';
import { processImage, THUMB_SIZES, type ThumbName } from './images';
import { LeftFileModel, StoredFileModel, UploadClaimModel, uploadClaimId, UploadModel, type StoredFileDoc, type UploadDoc } from './media.model';
import { signUrl } from './media.signing';
import { AUDIO_TYPES, IMAGE_TYPES, sniffFile } from './sniff';
import { sanitizeFileName } from './upload.middleware';

/** Audio above this size gets its waveform after the answer, off the request path. */
export const INLINE_AUDIO_BYTES = 5 * 1024 * 1024;

export type UploadPurpose = 'content' | 'avatar' | 'header';
export type Visibility = 'public' | 'owner' | 'restricted';

export interface ReceivedFile {
  path: string;
  originalname: string;
  size: number;
}

/** An object to store: a buffer, or the path of a local file. */
interface NewObject {
  key: string;
  body: Buffer | string;
  contentType: string;
}

export interface MediaDeps {
  storage: Storage;
  /** Key of signed URLs for files that are not public. */
  signingSecret: string;
  logger: Logger;
  /** How much audio, and how long, ffmpeg may decode from one upload (default DECODE_LIMITS). */
  decodeLimits?: DecodeLimits;
}

/** "4 hours", "90 seconds": a limit in words. */
function inWords(seconds: number): string {
  const [amount, unit] = seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** What the member is told when their audio is refused. */
function refusal(err: unknown, limits: DecodeLimits): unknown {
  if (!(err instanceof AudioDecodeError)) return err;
  if (err.reason === 'too-long')
    return new AppError(413, 'payload_too_large', `This song is longer than ${inWords(limits.maxSeconds)}, the longest we accept.`);
  if (err.reason === 'too-slow') return new AppError(415, 'unsupported_media_type', 'This audio file took too long to read. Please try another file.');
  return new AppError(415, 'unsupported_media_type', 'This audio file could not be read. Please try another file.');
}

/** The answer (503) to an upload the file storage refused; what it had taken is removed, or left to the housekeeping job. */
export const STORAGE_DOWN_MESSAGE = 'We could not store your file just now. Please try again in a moment.';

/** The type of a stored audio file, from its key (named after the type sniffed at upload). */
const extOf = (key: string) => key.slice(key.lastIndexOf('.') + 1);

function newBaseKey(folder: 'images' | 'audio'): string {
  const now = new Date();
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${folder}/${now.getUTCFullYear()}/${month}/${randomBytes(12).toString('hex')}`;
}

/** An upload that is not the caller's, or is used already: the form's message, on the field that named it. */
const notYourUpload = (kind: 'image' | 'audio') =>
  new AppError(400, 'bad_request', MESSAGES.notYourUpload, [{ path: kind === 'image' ? 'photoPath' : 'audioPath', message: MESSAGES.notYourUpload }]);

export function uploadKeys(upload: Pick<UploadDoc, 'key' | 'thumbKeys' | 'waveformKey'>): string[] {
  return [upload.key, ...Object.values(upload.thumbKeys ?? {}), upload.waveformKey].filter((k): k is string => Boolean(k));
}

export function createMediaService({ storage, signingSecret, logger, decodeLimits = DECODE_LIMITS }: MediaDeps) {
  /**
   * Stores the objects, their access records and, when given, the new upload's own record, all at once (no one
   * knows the keys before the answer); on any failure removes what was stored and rethrows.
   */
  async function storeAll(uploadId: Types.ObjectId, objects: NewObject[], upload?: InstanceType<typeof UploadModel>) {
    const results = await Promise.allSettled([
      ...objects.map((object) =>
        typeof object.body === 'string'
          ? storage.putFile(object.key, object.body, object.contentType)
          : storage.putBuffer(object.key, object.body, object.contentType),
      ),
      StoredFileModel.insertMany(objects.map((o) => ({ _id: o.key, uploadId, contentType: o.contentType, visibility: 'owner' }))),
      upload?.save(),
    ]);
    const failedAt = results.findIndex((r) => r.status === 'rejected');
    if (failedAt === -1) return;
    const reason = (results[failedAt] as PromiseRejectedResult).reason as unknown;
    // Every key, not only those whose put succeeded: a put whose answer was lost (a timeout, a cut connection)
    // may have stored its object all the same. Removing a key that is not there is no error.
    const keys = objects.map((o) => o.key);
    await removeOrList(keys);
    await StoredFileModel.deleteMany({ _id: anyOf(keys) });
    if (upload) await UploadModel.deleteOne({ _id: uploadId });
    const storageFailed = results.some((r, i) => i < objects.length && r.status === 'rejected');
    if (storageFailed) {
      logger.warn({ err: reason, upload: String(uploadId) }, 'the storage refused an upload');
      throw new ServiceUnavailable(STORAGE_DOWN_MESSAGE);
    }
    throw reason;
  }

  /** Removes objects now; when the storage refuses, lists them for the housekeeping job (`removeLeftFiles`). */
  async function removeOrList(keys: string[]): Promise<void> {
    try {
      await storage.delete(keys);
    } catch (err) {
      logger.warn({ err, keys }, 'stored files could not be removed; listed for the housekeeping job');
      try {
        await LeftFileModel.insertMany(
          keys.map((key) => ({ _id: key, at: new Date() })),
          { ordered: false },
        );
      } catch (listErr) {
        if (!isDuplicateKey(listErr)) logger.error({ err: listErr, keys }, 'stored files left behind and not listed: remove them by hand');
      }
    }
  }

  /**
   * Stores the waveform of an audio upload from its audio at `audioPath` and marks it ready (failed when the
   * audio cannot be decoded). Used after the answer for large uploads and by the housekeeping job; safe to repeat.
   */
  async function storeWaveform(upload: Pick<UploadDoc, '_id' | 'key'>, audioPath: string): Promise<void> {
    try {
      const { peaks, seconds } = await decodeAudio(audioPath, extOf(upload.key), decodeLimits);
      const waveformKey = `${upload.key.replace(/\.[a-z0-9]+$/, '')}-peaks.json`;
      // A run that stopped between storing and marking ready left this record behind; it must not collide.
      await StoredFileModel.deleteOne({ _id: waveformKey });
      await storeAll(upload._id, [{ key: waveformKey, body: Buffer.from(JSON.stringify(peaks)), contentType: 'application/json' }]);
      // The upload may already be on a public piece: its waveform is readable by the same people as its audio.
      const main = await StoredFileModel.findById(upload.key, { visibility: 1 }).lean<Pick<StoredFileDoc, 'visibility'>>();
      if (main) await StoredFileModel.updateOne({ _id: waveformKey }, { $set: { visibility: main.visibility } });
      await UploadModel.updateOne({ _id: upload._id }, { $set: { status: 'ready', waveformKey, duration: Math.round(seconds * 1000) / 1000 } });
    } catch (err) {
      logger.error({ err, upload: String(upload._id) }, 'waveform failed');
      await UploadModel.updateOne({ _id: upload._id }, { $set: { status: 'failed' } });
    }
  }

  async function waveformLater(upload: UploadDoc, workPath: string) {
    try {
      await storeWaveform(upload, workPath);
    } catch (err) {
      logger.error({ err, upload: String(upload._id) }, 'could not record the waveform outcome');
    } finally {
      await rm(workPath, { force: true });
    }
  }

  return {
    storeWaveform,

    async storeImage(file: ReceivedFile, ownerId: string, purpose: UploadPurpose): Promise<UploadDoc> {
      const type = await sniffFile(file.path, IMAGE_TYPES);
      if (!type) throw new AppError(415, 'unsupported_media_type', MESSAGES.imageType);
      let image;
      try {
        image = await processImage(file.path, type.ext as 'png' | 'jpg');
      } catch {
        throw new AppError(415, 'unsupported_media_type', 'This image could not be read. Please try another file.');
      }
      const base = newBaseKey('images');
      const key = `${base}.${type.ext}`;
      const thumbKeys = Object.fromEntries((Object.keys(THUMB_SIZES) as ThumbName[]).map((name) => [name, `${base}-${name}.webp`]));
      const upload = new UploadModel({
        key,
        ownerId,
        kind: 'image',
        purpose,
        status: 'ready',
        originalName: sanitizeFileName(file.originalname),
        size: image.original.length,
        mimeType: type.mime,
        width: image.width,
        height: image.height,
        thumbKeys,
      });
      await storeAll(
        upload._id,
        [
          { key, body: image.original, contentType: type.mime },
          ...(Object.keys(THUMB_SIZES) as ThumbName[]).map((name) => ({ key: thumbKeys[name]!, body: image.thumbs[name], contentType: 'image/webp' })),
        ],
        upload,
      );
      return upload.toObject();
    },

    async storeAudio(file: ReceivedFile, ownerId: string): Promise<UploadDoc> {
      const type = await sniffFile(file.path, AUDIO_TYPES);
      if (!type) throw new AppError(415, 'unsupported_media_type', MESSAGES.audioType);
      const base = newBaseKey('audio');
      const key = `${base}.${type.ext}`;
      const inline = file.size <= INLINE_AUDIO_BYTES;
      const upload = new UploadModel({
        key,
        ownerId,
        kind: 'audio',
        purpose: 'content',
        status: inline ? 'ready' : 'processing',
        originalName: sanitizeFileName(file.originalname),
        size: file.size,
        mimeType: type.mime,
      });
      const objects: NewObject[] = [{ key, body: file.path, contentType: type.mime }];
      // A large file's duration is known once it is decoded, after the answer (status 'processing').
      if (inline) {
        let waveform;
        try {
          waveform = await decodeAudio(file.path, type.ext, decodeLimits);
        } catch (err) {
          throw refusal(err, decodeLimits);
        }
        upload.waveformKey = `${base}-peaks.json`;
        upload.duration = Math.round(waveform.seconds * 1000) / 1000;
        objects.push({ key: upload.waveformKey, body: Buffer.from(JSON.stringify(waveform.peaks)), contentType: 'application/json' });
      }
      await storeAll(upload._id, objects, upload);
      const saved = upload.toObject() as unknown as UploadDoc;
      if (!inline) {
        // Keep a private copy of the temp file (the request's one is removed when it ends).
        const workPath = `${file.path}.work`;
        await rename(file.path, workPath);
        void waveformLater(saved, workPath);
      }
      return saved;
    },

    /** The caller's unused upload of that kind and purpose, by key; 400 with the form's message otherwise. */
    async ownUnusedUpload(key: string | undefined, ownerId: string, kind: 'image' | 'audio', purpose: UploadPurpose, missing: string): Promise<UploadDoc> {
      if (!key) throw new AppError(400, 'bad_request', missing, [{ path: kind === 'image' ? 'photoPath' : 'audioPath', message: missing }]);
      const upload = await UploadModel.findOne({ key, ownerId, kind, purpose, usedBy: null }).lean<UploadDoc>();
      if (!upload) throw notYourUpload(kind);
      return upload;
    },

    /**
     * Marks uploads used by `usedBy` and sets who may read their files. Each upload is claimed by inserting its
     * claim (media.model.ts): of two pieces publishing one upload at once, in any processes, one wins and the
     * other gets what it would have got a moment later (the upload is used), with nothing claimed. An upload
     * claimed already by the same `usedBy` counts as claimed (one piece published twice under its id).
     */
    async attach(uploads: UploadDoc[], usedBy: string, visibility: Visibility): Promise<void> {
      const claimed: UploadDoc[] = [];
      for (const upload of uploads) {
        try {
          await UploadClaimModel.create({ _id: uploadClaimId(upload._id), usedBy, at: new Date() });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          // Claimed already for this same use (a piece published again under its own id): still its upload.
          const claim = await UploadClaimModel.findById(uploadClaimId(upload._id)).lean();
          if (claim?.usedBy === usedBy) continue;
          await this.detach(claimed, usedBy);
          throw notYourUpload(upload.kind);
        }
        claimed.push(upload);
      }
      for (const upload of uploads) await UploadModel.updateOne({ _id: upload._id }, { $set: { usedBy } });
      await StoredFileModel.updateMany({ uploadId: anyOf(uploads.map((u) => u._id)) }, { $set: { visibility } });
    },

    /** Frees uploads that `usedBy` claimed (a save that failed after attach), so they can be used again. */
    async detach(uploads: Pick<UploadDoc, '_id'>[], usedBy: string): Promise<void> {
      for (const upload of uploads) {
        const claim = await UploadClaimModel.findById(uploadClaimId(upload._id)).lean();
        if (claim?.usedBy !== usedBy) continue;
        await UploadModel.updateOne({ _id: upload._id }, { $set: { usedBy: null } });
        await UploadClaimModel.deleteOne({ _id: claim._id });
      }
    },

    /** A stream of an upload's stored file (its main file: the re-encoded image, or the audio as sent). */
    async read(upload: Pick<UploadDoc, 'key'>): Promise<Readable> {
      return storage.read(upload.key);
    },

    async setVisibility(uploadIds: Types.ObjectId[], visibility: Visibility): Promise<void> {
      await StoredFileModel.updateMany({ uploadId: anyOf(uploadIds) }, { $set: { visibility } });
    },

    async remove(uploads: Pick<UploadDoc, '_id' | 'key' | 'thumbKeys' | 'waveformKey'>[]): Promise<void> {
      const keys = uploads.flatMap(uploadKeys);
      await storage.delete(keys);
      await StoredFileModel.deleteMany({ _id: anyOf(keys) });
      await UploadModel.deleteMany({ _id: anyOf(uploads.map((u) => u._id)) });
      await UploadClaimModel.deleteMany({ _id: anyOf(uploads.map((u) => uploadClaimId(u._id))) });
    },

    /** The URL of a stored object: plain when public, signed and expiring otherwise. */
    url(key: string, isPublic: boolean): string {
      return isPublic ? storage.publicUrl(key) : signUrl(signingSecret, `/files/${key}`, key);
    },

    toUploadDto(upload: UploadDoc): Schemas['Upload'] {
      const url = (key: string) => this.url(key, false);
      return {
        id: String(upload._id),
        kind: upload.kind,
        status: upload.status,
        originalName: upload.originalName,
        size: upload.size,
        mimeType: upload.mimeType,
        url: url(upload.key),
        ...(upload.width ? { width: upload.width, height: upload.height! } : {}),
        ...(upload.thumbKeys
          ? {
              thumbs: {
                thumb: url(upload.thumbKeys.thumb!),
                mthumb: url(upload.thumbKeys.mthumb!),
                hthumb: url(upload.thumbKeys.hthumb!),
                wthumb: url(upload.thumbKeys.wthumb!),
              },
            }
          : {}),
        ...(upload.duration !== undefined && upload.duration !== null ? { duration: upload.duration } : {}),
        ...(upload.waveformKey ? { waveformUrl: url(upload.waveformKey) } : {}),
      };
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
