/**
 * A piece's files after publishing: its owner replaces its audio or its picture with a new file (which went through
 * the upload pipeline: sniffed, sized, decoded), or restores a file it had (a version, kept 30 days). The piece keeps
 * its id, link, plays, comments, knacks and earnings: only its uploads and its copy of their keys change. New files
 * have new keys, so no URL that caches keep names the new bytes; the replaced file is then readable by its owner
 * only (through signed links), so its old public URL stops answering.
 *
 * Every change of a piece's files runs under the piece's lock (all processes), and is written in an order that a
 * stopped process leaves settleable (see ContentVersionModel): the version record first, then the piece, then the
 * version marked kept. The housekeeping job settles what a stopped process left and removes versions past their 30
 * days with their files.
 */
import { Types } from 'mongoose';
import { AppError, notFound } from '../../lib/errors';
import { withLock } from '../../lib/mutex';
import type { Schemas } from '../../lib/openapi-types';
import { publicPages } from '../../lib/public-pages';
import { anyOf, ours } from '../../lib/query';
import type { Limit } from '../../lib/rate-limit';
import { type MediaService, type UploadDoc, uploadReads, type Visibility } from '../media';
import { ContentModel, ContentVersionModel, type ContentDoc, type ContentVersionDoc } from './contents.model';
import { noteVersion, recentVersions } from './contents.versions';

/** Which file of a piece: a song's audio, or its picture (a song's cover, the image of art and photos). */
export type PieceFileKind = 'audio' | 'image';

/** How long a replaced file can be restored; after that the housekeeping job removes it. */
export const FILE_VERSION_KEPT_MS = 30 * 24 * 60 * 60_000;

/**
 * A replacement that has not finished this long after it began was cut short by a process that stopped (the lock it
 * ran under lasts seconds): the housekeeping job settles it.
 */
export const STALLED_SWITCH_MS = 10 * 60_000;

/** Replacements and restores per member: room for a day of fixing covers, a wall for scripts filling the disk. */
export const FILE_CHANGE_LIMIT: Limit = { max: 30, windowMs: 60 * 60_000 };

export const FILE_MESSAGES = {
  replaced: 'The new file is in place.',
  restored: 'The earlier file is back in place.',
  tooMany: 'Too many file changes. Please wait and try again.',
  nft: 'This piece is an NFT: its token names the file pinned on IPFS, so its files cannot be replaced.',
  noAudio: 'Art and photos have no audio: replace their picture instead.',
  versionNotFound: 'Version not found',
  busy: 'This piece’s file is being changed. Please try again in a moment.',
} as const;

const FIELD: Record<PieceFileKind, 'audioUploadId' | 'photoUploadId'> = { audio: 'audioUploadId', image: 'photoUploadId' };

/** The lock every change of a piece's files runs under: replacing, restoring, settling and removing versions. */
const lockOf = (contentId: Types.ObjectId | string) => `content-files:${String(contentId)}`;
const LOCK = { ttlMs: 30_000, waitMs: 10_000, busyMessage: FILE_MESSAGES.busy };

/** What the piece's uploads are claimed by (media's `usedBy`). */
export const usedByOf = (contentId: Types.ObjectId | string) => `content:${String(contentId)}`;

/** Who may read a piece's files: everyone while it is public and not taken down, else only through signed links. */
export const filesVisibility = (content: Pick<ContentDoc, 'setting' | 'takenDown'>): Visibility =>
  content.setting.public && !content.takenDown ? 'public' : 'restricted';

/** The piece's copy of its files (see the model), from its uploads. */
export function mediaOf(photo: UploadDoc, audio: UploadDoc | null): ContentDoc['media'] {
  const main = audio ?? photo;
  return {
    photoKey: photo.key,
    thumbKeys: { thumb: photo.thumbKeys?.thumb, mthumb: photo.thumbKeys?.mthumb, hthumb: photo.thumbKeys?.hthumb, wthumb: photo.thumbKeys?.wthumb },
    audioKey: audio?.key ?? null,
    waveformKey: audio?.waveformKey ?? null,
    duration: audio?.duration ?? null,
    fileName: main.originalName ?? '',
    fileSize: main.size,
    fileType: main.mimeType,
    status: audio?.status ?? 'ready',
  };
}

/** The piece's upload of `kind`, read by `_id`. */
async function uploadOf(content: ContentDoc, kind: PieceFileKind): Promise<UploadDoc | null> {
  const id = content[FIELD[kind]];
  return id ? uploadReads.byId<UploadDoc>(id) : null;
}

/**
 * Whether the file of `kind` of this piece may be replaced or restored: not on a piece minted as an NFT (its token
 * names the file's IPFS CID), and audio only on a song. Answers the piece.
 */
export function requireReplaceable(content: ContentDoc, kind: PieceFileKind): ContentDoc {
  if (content.nft) throw new AppError(409, 'conflict', FILE_MESSAGES.nft);
  if (kind === 'audio' && !content.audioUploadId)
    throw new AppError(400, 'bad_request', FILE_MESSAGES.noAudio, [{ path: 'file', message: FILE_MESSAGES.noAudio }]);
  return content;
}

export function createPieceFiles(media: MediaService) {
  /**
   * The switch is done: the new file is readable as the piece is, the replaced one by its owner only; a version that
   * was restored by it is a version no longer; the record is kept.
   */
  async function finish(version: ContentVersionDoc, content: ContentDoc): Promise<void> {
    await media.setVisibility([version.replacedBy], filesVisibility(content));
    await media.setVisibility([version.uploadId], 'owner');
    if (version.restores) await ContentVersionModel.deleteOne({ _id: version.restores });
    // A record written before records named the version they restore: found by its upload (a scan, for those only).
    else if (version.restores === undefined)
      await ContentVersionModel.deleteMany(ours({ contentId: version.contentId, uploadId: version.replacedBy, _id: { $ne: version._id } }));
    await ContentVersionModel.updateOne({ _id: version._id }, { $set: { state: 'kept' } });
  }

  /**
   * The switch did not happen: a new upload is freed (unused, the housekeeping job removes it after a day), a restored
   * version stays a version, and the record goes (last, so that a stop in between leaves it to settle again).
   */
  async function undo(version: ContentVersionDoc): Promise<void> {
    const restoring =
      version.restores === undefined
        ? await ContentVersionModel.exists(ours({ contentId: version.contentId, uploadId: version.replacedBy, _id: { $ne: version._id } }))
        : Boolean(version.restores);
    if (!restoring) await media.detach([{ _id: version.replacedBy }], usedByOf(version.contentId));
    await ContentVersionModel.deleteOne({ _id: version._id });
  }

  /**
   * Makes `next` the piece's file of `kind`, the file it had becoming a version. `next` is a new upload of the
   * owner (claimed here for the piece), or the upload of the version `restoring` (claimed by the piece already).
   * Runs under the piece's lock; answers the piece as it is now.
   */
  async function switchFile(content: ContentDoc, kind: PieceFileKind, next: UploadDoc, restoring: ContentVersionDoc | null): Promise<ContentDoc> {
    const current = await uploadOf(content, kind);
    const other = await uploadOf(content, kind === 'audio' ? 'image' : 'audio');
    if (!current || (kind === 'audio' && !other)) throw new Error(`piece ${String(content._id)} has lost an upload of its files`);
    const [photo, audio] = kind === 'image' ? [next, other] : [other!, next];
    const now = Date.now();
    const versionId = new Types.ObjectId();
    const keepUntil = new Date(now + FILE_VERSION_KEPT_MS);
    // Its place in the piece's versions first: a record is never missing from them.
    await noteVersion(content._id, versionId, keepUntil);
    const version = (
      await ContentVersionModel.create({
        _id: versionId,
        contentId: content._id,
        kind,
        uploadId: current._id,
        replacedBy: next._id,
        fileName: current.originalName ?? '',
        size: current.size,
        mimeType: current.mimeType,
        duration: current.duration ?? null,
        replacedAt: new Date(now),
        keepUntil,
        state: 'switching',
        restores: restoring?._id ?? null,
      })
    ).toObject<ContentVersionDoc>();
    try {
      if (!restoring) await media.attach([next], usedByOf(content._id), filesVisibility(content));
      await ContentModel.updateOne({ _id: content._id }, { $set: { [FIELD[kind]]: next._id, media: mediaOf(photo, audio) } });
    } catch (err) {
      await undo(version);
      throw err;
    }
    await finish(version, content);
    publicPages.clear();
    return (await ContentModel.findById(content._id).lean<ContentDoc>())!;
  }

  /**
   * Settles every switch of the piece's files that a stopped process left, before a new change: the caller holds the
   * lock, so none of them is under way, and a change made on top of a half-done one could leave the earlier file
   * neither held nor kept.
   */
  async function settleStalledOf(contentId: Types.ObjectId): Promise<void> {
    const stalled = (await recentVersions(contentId)).filter((version) => version.state === 'switching');
    for (const version of stalled) await settle(version);
  }

  /** Reads the piece again under its lock (it may have changed, or gone, since it was checked). */
  async function lockedPiece(contentId: Types.ObjectId, kind: PieceFileKind): Promise<ContentDoc> {
    const content = await ContentModel.findById(contentId).lean<ContentDoc>();
    if (!content) throw notFound('Content not found');
    return requireReplaceable(content, kind);
  }

  /** A version of the piece that can still be restored, or null. */
  async function restorableVersion(contentId: Types.ObjectId, versionId: string): Promise<ContentVersionDoc | null> {
    if (!Types.ObjectId.isValid(versionId)) return null;
    const version = await ContentVersionModel.findById(versionId).lean<ContentVersionDoc>();
    const restorable = version && String(version.contentId) === String(contentId) && version.state === 'kept' && version.keepUntil.getTime() > Date.now();
    return restorable ? version : null;
  }

  /** Settles a switch a stopped process left: finished if the piece holds the new file, undone otherwise. */
  async function settle(stalled: ContentVersionDoc): Promise<boolean> {
    const version = await ContentVersionModel.findById(stalled._id).lean<ContentVersionDoc>();
    if (version?.state !== 'switching') return false;
    const content = await ContentModel.findById(version.contentId).lean<ContentDoc>();
    if (!content) {
      // The piece was removed meanwhile: nothing uses either file.
      await media.remove(await uploadReads.many<UploadDoc>({ _id: anyOf([version.uploadId, version.replacedBy]) }));
      await ContentVersionModel.deleteOne({ _id: version._id });
    } else if (String(content[FIELD[version.kind]]) === String(version.replacedBy)) {
      await finish(version, content);
      publicPages.clear();
    } else {
      await undo(version);
    }
    return true;
  }

  /** Removes a version past its keeping, with its files (never a file the piece holds). */
  async function expire(expired: ContentVersionDoc): Promise<boolean> {
    const version = await ContentVersionModel.findById(expired._id).lean<ContentVersionDoc>();
    if (version?.state !== 'kept' || version.keepUntil.getTime() > Date.now()) return false;
    const content = await ContentModel.findById(version.contentId, { photoUploadId: 1, audioUploadId: 1 }).lean<ContentDoc>();
    const held = content && String(content[FIELD[version.kind]]) === String(version.uploadId);
    const upload = held ? null : await uploadReads.byId<UploadDoc>(version.uploadId);
    // The files first: a stop before the record goes leaves the record, and the next run removes nothing twice.
    if (upload) await media.remove([upload]);
    await ContentVersionModel.deleteOne({ _id: version._id });
    return true;
  }

  return {
    /**
     * Stores `file` through the upload pipeline as the owner's, then makes it the piece's file of `kind`. A file the
     * pipeline refuses leaves nothing; a switch that fails leaves the upload unused (removed within a day).
     */
    async replace(content: ContentDoc, kind: PieceFileKind, store: (ownerId: string) => Promise<UploadDoc>): Promise<ContentDoc> {
      const next = await store(String(content.ownerId));
      return withLock(
        lockOf(content._id),
        async () => {
          await settleStalledOf(content._id);
          return switchFile(await lockedPiece(content._id, kind), kind, next, null);
        },
        LOCK,
      );
    },

    /** Makes the version the piece's file again; 404 'Version not found' when it is not a restorable version of the piece. */
    async restore(content: ContentDoc, versionId: string): Promise<ContentDoc> {
      return withLock(
        lockOf(content._id),
        async () => {
          await settleStalledOf(content._id);
          const version = await restorableVersion(content._id, versionId);
          const upload = version && (await uploadReads.byId<UploadDoc>(version.uploadId));
          if (!version || !upload) throw notFound(FILE_MESSAGES.versionNotFound);
          return switchFile(await lockedPiece(content._id, version.kind), version.kind, upload, version);
        },
        LOCK,
      );
    },

    /** The piece's versions that can still be restored, the latest replaced first, with signed links for its owner. */
    async versions(content: ContentDoc): Promise<Schemas['ContentVersion'][]> {
      const now = Date.now();
      const kept = (await recentVersions(content._id, now))
        .filter((version) => version.state === 'kept' && version.keepUntil.getTime() > now)
        .sort((a, b) => b.replacedAt.getTime() - a.replacedAt.getTime());
      const listed: Schemas['ContentVersion'][] = [];
      for (const version of kept) {
        const upload = await uploadReads.byId<UploadDoc>(version.uploadId);
        if (!upload) continue;
        const preview = upload.thumbKeys?.mthumb;
        listed.push({
          id: String(version._id),
          kind: version.kind,
          fileName: version.fileName,
          size: version.size,
          mimeType: version.mimeType,
          ...(version.duration != null ? { duration: version.duration } : {}),
          replacedAt: version.replacedAt.toISOString(),
          restorableUntil: version.keepUntil.toISOString(),
          url: media.url(upload.key, false),
          ...(preview ? { previewUrl: media.url(preview, false) } : {}),
        });
      }
      return listed;
    },

    /**
     * The housekeeping job's part: settles the switches that stopped processes left, and removes the versions past
     * their 30 days with their files. Each under the piece's lock; safe to run twice, even at once.
     */
    async sweep(): Promise<{ settled: number; removed: number }> {
      const stalled = await ContentVersionModel.find(ours({ state: 'switching', replacedAt: { $lt: new Date(Date.now() - STALLED_SWITCH_MS) } })).lean<
        ContentVersionDoc[]
      >();
      let settled = 0;
      for (const version of stalled) if (await withLock(lockOf(version.contentId), () => settle(version), LOCK)) settled += 1;
      const expired = await ContentVersionModel.find(ours({ state: 'kept', keepUntil: { $lt: new Date() } })).lean<ContentVersionDoc[]>();
      let removed = 0;
      for (const version of expired) if (await withLock(lockOf(version.contentId), () => expire(version), LOCK)) removed += 1;
      return { settled, removed };
    },
  };
}

export type PieceFiles = ReturnType<typeof createPieceFiles>;
