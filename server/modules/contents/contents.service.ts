/**
 * Publishing and managing pieces. The form rules answer the upload form's messages; only the owner or an
 * admin changes or removes a piece; private pieces are not visible to others.
 */
import { Types } from 'mongoose';
import { MESSAGES } from '../../../generated/validation';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { updateWhileStill } from '../../lib/guarded-write';
import { readById } from '../../lib/query';
import { AppError, notFound } from '../../lib/errors';
import { knackPriceMicros } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import { wordsOf } from '../../lib/search';
import { changeTitleTerms } from './contents.title-index';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import type { UploadPass } from '../../lib/upload-pass';
import type { AuthContext } from '../../lib/auth-context';
import type { AuditDetails } from '../../lib/audit-details';
import { isAdmin, isOwnerOrAdmin, isSelfOrAdmin, requireAdmin, requireOwnerOrAdmin, requirePieceRemover, requireSelfOrAdmin } from '../../lib/permissions';
import { publicPages } from '../../lib/public-pages';
import { type MediaService, type ReceivedFile, type UploadDoc, uploadReads } from '../media';
import { hasPlanAboveFirst } from '../subscriptions';
import { type TagDoc, tagReads, tagsService } from '../tags';
import { adjustContentsCount, type UserDoc, userReads } from '../users';
import { isFollower } from '../follows';
import { type CountReader, toContentDto } from './contents.mapper';
import { ADMIN_PIECE_MESSAGES, adminPiecePage, deletionAudit, pieceForAdmin, reviewFieldsOf, type AdminPieceQuery } from './contents.admin';
import { removePiece, uploadsOf } from './contents.erasure';
import { claimFreeSlug, confirmPieceLink, releasePieceLink } from './contents.links';
import { createPieceFiles, FILE_CHANGE_LIMIT, FILE_MESSAGES, filesVisibility, mediaOf, requireReplaceable, type PieceFileKind } from './contents.files';
import { featureRankOf, initialRanking } from './contents.ranking';
import { ContentModel, type ContentDoc } from './contents.model';
import { notePieceChange, notePieceOwned } from './contents.chains';
import { setPieceProject, type ProjectOwnerCheck } from './contents.projects';

export type SaveMode = 'classic' | 'top50' | 'artist';

export interface SaveInput {
  title?: string;
  description?: string;
  tags?: { name: string }[];
  subTag?: string;
  photoPath?: string;
  audioPath?: string;
  email?: string;
}

/** A piece that passed the form's rules, ready to publish: what `check` found, for `publish`. */
export interface PieceToPublish {
  mode: SaveMode;
  ownerId: string;
  owner: Pick<UserDoc, 'userType' | 'username' | 'fullName' | 'followersCount'>;
  title: string;
  description: string;
  main: TagDoc;
  sub: TagDoc | null;
  photo: UploadDoc;
  audio: UploadDoc | null;
  /** The Top 50 contact email, lower-cased; null in the other modes. */
  email: string | null;
  /** Top 50: the artist whose chart the piece is entered in. */
  chartArtistId?: string | null;
}

/** A piece that passed the form's rules, its owner not known yet (a visitor's Top 50 song, before its account). */
export type CheckedForm = Omit<PieceToPublish, 'ownerId' | 'owner'>;

/** A minted piece's token, as the NFT module hands it over (the API's ContentNft). */
export type ContentNft = Schemas['ContentNft'];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A visitor's Top 50 entries, counted before any other work: passes and entries per address (a person sends a song
 * or two; a script sending hundreds is stopped), and entries per email, so that nobody mails an address they do not
 * hold more than a few times a day.
 */
export const TOP50_VISITOR_LIMITS = {
  passes: { max: 10, windowMs: 60 * 60_000 } satisfies Limit,
  address: { max: 10, windowMs: 60 * 60_000 } satisfies Limit,
  email: { max: 5, windowMs: 24 * 60 * 60_000 } satisfies Limit,
};

export const TOP50_MESSAGES = {
  tooMany: 'Too many songs sent. Please wait and try again.',
  checkEmail: 'Check your email: your song joins the chart once you register from the link we sent.',
} as const;

/** The waiting account of a visitor's email (the auth module's, handed in by the app). */
export type WaitingAccountFor = (email: string, chart: string) => Promise<Pick<UserDoc, '_id' | 'username' | 'fullName' | 'userType' | 'followersCount'>>;
const MAIN_TAGS = ['music', 'art', 'photos'] as const;

function fail(message: string, path: string): never {
  throw new AppError(400, 'bad_request', message, [{ path, message }]);
}

/**
 * Who may see a piece: everyone when public and not taken down by an admin; else its owner and admins (followers
 * come with follows). A read that checks this must read `takenDown` too.
 */
export function canSee(content: Pick<ContentDoc, 'ownerId' | 'setting' | 'takenDown'>, viewer: AuthContext | undefined): boolean {
  return (content.setting.public && !content.takenDown) || isOwnerOrAdmin(viewer, content.ownerId);
}

/**
 * Who may see a piece, followers included: canSee, or for a piece its owner shows to followers, a viewer who follows
 * the owner (one read by key, made only for such a piece).
 */
export async function canView(content: Pick<ContentDoc, 'ownerId' | 'setting' | 'takenDown'>, viewer: AuthContext | undefined): Promise<boolean> {
  if (canSee(content, viewer)) return true;
  return Boolean(viewer && content.setting.followers && !content.takenDown && (await isFollower(viewer.userId, String(content.ownerId))));
}

/** In the public feeds: public, not held for review, not taken down. */
const isListed = (content: Pick<ContentDoc, 'setting' | 'isHide' | 'takenDown'>) => content.setting.public && !content.isHide && !content.takenDown;

/** Copies a finished waveform and the decoded duration (audio processed after the upload answered) onto the piece. */
export async function withFinishedMedia(content: ContentDoc): Promise<ContentDoc> {
  if (content.media.status !== 'processing' || !content.audioUploadId) return content;
  const audio = await uploadReads.byId<UploadDoc>(content.audioUploadId);
  if (!audio || audio.status === 'processing') return content;
  const updated = { ...content.media, status: audio.status, waveformKey: audio.waveformKey ?? null, duration: audio.duration ?? content.media.duration };
  await ContentModel.updateOne({ _id: content._id }, { $set: { media: updated } });
  return { ...content, media: updated };
}

/** The form's text fields, checked in the order the form shows them. */
function checkFields(input: SaveInput, mode: SaveMode) {
  const title = input.title?.trim();
  const description = input.description?.trim();
  if (!title) fail(MESSAGES.titleRequired, 'title');
  if (mode === 'top50' && !EMAIL.test(input.email?.trim() ?? '')) fail(MESSAGES.emailMustBeValid, 'email');
  if (!description) fail(MESSAGES.descriptionRequired, 'description');
  const mainName = input.tags?.[0]?.name?.trim();
  if (!mainName) fail(MESSAGES.tagsRequired, 'tags');
  const email = mode === 'top50' ? input.email!.trim().toLowerCase() : null;
  return { title, description, mainName, email };
}

async function mainTagOf(name: string): Promise<TagDoc> {
  const main = await tagReads.one<TagDoc>({ labelLower: name.toLowerCase(), parentTag: null });
  if (!main || !MAIN_TAGS.includes(main.type)) fail('Choose Music, Art or Photos.', 'tags');
  return main;
}

async function subTagOf(main: TagDoc, subTag: string | undefined): Promise<TagDoc | null> {
  const name = subTag?.trim();
  if (!name) return null;
  const sub = await tagReads.one<TagDoc>({ labelLower: name.toLowerCase(), parentTag: main._id });
  if (!sub) fail(`${name} is not a sub-tag of ${main.label}.`, 'subTag');
  return sub;
}

export function createContentsService(media: MediaService) {
  /** The photo, and the song of a Music piece: unused uploads of `uploaderId`, or the form's message. */
  async function formUploads(uploaderId: string, isMusic: boolean, input: SaveInput) {
    const photo = await media.ownUnusedUpload(input.photoPath, uploaderId, 'image', 'content', MESSAGES.photoRequired);
    const audio = isMusic ? await media.ownUnusedUpload(input.audioPath, uploaderId, 'audio', 'content', MESSAGES.audioRequired) : null;
    return { photo, audio };
  }

  /** The piece as `reader` sees it (counts its owner hides are null but for the owner and admins). */
  async function dto(content: ContentDoc, reader: CountReader): Promise<Schemas['Content']> {
    const [finished, price] = await Promise.all([withFinishedMedia(content), tagsService.knackPriceNow(content)]);
    return toContentDto(finished, (key) => media.url(key, finished.setting.public), reader, price.knackMicros);
  }

  /** A piece its owner (or an admin) may change; anyone else's answers 404, as one that does not exist. */
  async function editable(contentId: string, caller: AuthContext): Promise<ContentDoc> {
    const content = await ContentModel.findById(contentId).lean<ContentDoc>();
    if (!content) throw notFound('Content not found');
    requireOwnerOrAdmin(caller, content.ownerId, 'Content not found');
    return content;
  }

  const files = createPieceFiles(media);

  /** A piece whose file of `kind` the caller may replace: theirs (or an admin's), not an NFT, audio only on a song. */
  async function replaceable(contentId: string, caller: AuthContext, kind: PieceFileKind): Promise<ContentDoc> {
    return requireReplaceable(await editable(contentId, caller), kind);
  }

  const service = {
    dto,

    /**
     * The form's rules, with its messages, and nothing written: a piece that would publish as it is. Another module
     * that publishes a piece (minting it as an NFT) checks it with this before its own work, then publishes it.
     */
    async check(caller: AuthContext, input: SaveInput, mode: SaveMode, ownerId = caller.userId): Promise<PieceToPublish> {
      // Another artist's page answers as a member who does not exist: only the artist and admins publish there.
      if (mode === 'artist') requireSelfOrAdmin(caller, ownerId, 'User not found');
      const fields = checkFields(input, mode);
      const main = await mainTagOf(fields.mainName);
      const sub = await subTagOf(main, input.subTag);
      const isMusic = main.type === 'music';
      if (mode !== 'classic' && !isMusic) fail('Only Music can be published here.', 'tags');
      const owner = await userReads.byId<PieceToPublish['owner']>(ownerId, { userType: 1, username: 1, fullName: 1, followersCount: 1 });
      if (!owner) throw notFound('User not found');
      if (owner.userType === 50 && !isMusic) throw new AppError(403, 'forbidden', MESSAGES.musicOnly);
      const { photo, audio } = await formUploads(caller.userId, isMusic, input);
      return { mode, ownerId, owner, title: fields.title, description: fields.description, main, sub, photo, audio, email: fields.email };
    },

    /**
     * A visitor's Top 50 song, checked as `check` does with the uploads of their pass's session (`sessionId`), for
     * an owner found afterwards (the waiting account of the email), so that a refused form makes no account.
     */
    async checkVisitorTop50(sessionId: string, input: SaveInput): Promise<CheckedForm> {
      const fields = checkFields(input, 'top50');
      const main = await mainTagOf(fields.mainName);
      const sub = await subTagOf(main, input.subTag);
      if (main.type !== 'music') fail('Only Music can be published here.', 'tags');
      const { photo, audio } = await formUploads(sessionId, true, input);
      return { mode: 'top50', title: fields.title, description: fields.description, main, sub, photo, audio, email: fields.email };
    },

    /**
     * Publishes a checked piece: its uploads are claimed for it, then it is inserted. With `id`, the piece is
     * inserted under that id, so that publishing it again (a retry, or two at once, in any process) inserts it once:
     * the piece already there is answered, and the uploads it holds are left to it. `nft` is the token it was
     * minted as.
     */
    async publish(piece: PieceToPublish, { id, nft, waiting = false }: { id?: Types.ObjectId; nft?: ContentNft; waiting?: boolean } = {}): Promise<ContentDoc> {
      const { mode, ownerId, owner, title, main, sub, photo, audio } = piece;
      const _id = id ?? new Types.ObjectId();
      const uploadedAt = new Date();
      const content = new ContentModel({
        _id,
        ownerId,
        ownerUsername: owner.username,
        ownerName: owner.fullName,
        title,
        // Claimed by insert (contents.links.ts): two pieces with one title published at once get two slugs.
        slug: await claimFreeSlug(ownerId, title, _id),
        titleWords: wordsOf(title),
        media: mediaOf(photo, audio),
        description: piece.description,
        tags: [{ name: main.label }],
        subTag: sub?.label ?? '',
        type: main.type,
        photoUploadId: photo._id,
        audioUploadId: audio?._id ?? null,
        isOrlando: mode === 'artist',
        isTop50: mode === 'top50',
        top50Email: piece.email,
        top50ArtistId: piece.chartArtistId ?? null,
        awaitingOwner: waiting,
        ...(waiting ? { setting: { public: false, private: true, followers: false, hidePlayCount: false, hideViewCount: false } } : {}),
        knackRateMicros: knackPriceMicros((sub ?? main).priceMicros),
        listed: !waiting,
        uploadedAt,
        ...(nft ? { nft } : {}),
        ...initialRanking(uploadedAt, owner.followersCount),
      });
      const uploads = audio ? [photo, audio] : [photo];
      const usedBy = `content:${String(_id)}`;
      await media.attach(uploads, usedBy, waiting ? 'restricted' : 'public');
      try {
        await content.save();
      } catch (err) {
        // Published already under this id: that piece holds the uploads and its link, and is the answer.
        const already = id && isDuplicateKey(err) ? await ContentModel.findById(id).lean<ContentDoc>() : null;
        if (already) return already;
        await media.detach(uploads, usedBy);
        await releasePieceLink(ownerId, content.slug, _id);
        throw err;
      }
      // On its owner's list (which shows them their waiting pieces too), and at the top of Newest at once.
      await notePieceOwned(content);
      await confirmPieceLink(ownerId, content.slug, _id);
      // A waiting piece is counted and shown when its owner registers (publishWaitingPiecesOf).
      if (waiting) return content.toObject();
      await adjustContentsCount(ownerId, 1);
      publicPages.clear();
      return content.toObject();
    },

    /**
     * The pieces a waiting account sent, published once it is registered: under its chosen name, public, on the
     * lists, their files public. Publishing them again changes nothing, so a registration cut short is completed by
     * the next call.
     */
    async publishWaitingPiecesOf(owner: Pick<UserDoc, '_id' | 'username' | 'fullName'>): Promise<number> {
      const waiting = await ContentModel.find({ ownerId: owner._id, awaitingOwner: true }).lean<ContentDoc[]>();
      for (const piece of waiting) {
        const listed = !piece.isHide && !piece.takenDown;
        await changeTitleTerms(piece._id, piece, { ...piece, listed }, () =>
          ContentModel.updateOne(
            { _id: piece._id },
            {
              $set: {
                ownerUsername: owner.username,
                ownerName: owner.fullName,
                awaitingOwner: false,
                setting: { ...piece.setting, public: true, private: false, followers: false },
                listed,
              },
            },
          ),
        );
        await notePieceChange(piece);
        await media.setVisibility(uploadsOf(piece), piece.takenDown ? 'restricted' : 'public');
      }
      const shown = waiting.filter((piece) => !piece.isHide && !piece.takenDown).length;
      if (shown) await adjustContentsCount(owner._id, shown);
      publicPages.clear();
      return waiting.length;
    },

    async save(caller: AuthContext, input: SaveInput, mode: SaveMode, ownerId = caller.userId): Promise<ContentDoc> {
      return service.publish(await service.check(caller, input, mode, ownerId));
    },

    /** The artist of a Top 50 chart: a registered member, else 404 as for nobody. */
    async chartArtist(artistId: string): Promise<Pick<UserDoc, '_id' | 'username'>> {
      const artist = await userReads.byId<Pick<UserDoc, '_id' | 'username' | 'awaitsRegistration'>>(artistId, { username: 1, awaitsRegistration: 1 });
      if (!artist || artist.awaitsRegistration) throw notFound('User not found');
      return artist;
    },

    /** A member's song entered in an artist's Top 50: published at once, owned by the member. */
    async saveTop50(caller: AuthContext, input: SaveInput & { artistId: string }): Promise<ContentDoc> {
      const artist = await service.chartArtist(input.artistId);
      const piece = await service.check(caller, input, 'top50');
      return service.publish({ ...piece, chartArtistId: String(artist._id) });
    },

    /**
     * A visitor's song entered in an artist's Top 50 with their upload pass: counted per address first, checked as
     * a member's (with the pass's uploads), then owned by the waiting account of its email (`waitingAccountFor`,
     * which mails the registration link) and kept out of sight until that account is registered.
     */
    async saveVisitorTop50(
      pass: () => UploadPass,
      input: SaveInput & { artistId: string },
      address: string,
      waitingAccountFor: WaitingAccountFor,
    ): Promise<ContentDoc> {
      await consumeLimit(`top50:ip:${address}`, TOP50_VISITOR_LIMITS.address, TOP50_MESSAGES.tooMany);
      const { sessionId, artistId } = pass();
      if (artistId !== input.artistId) throw new AppError(401, 'unauthorized', 'Please log in, or open the upload form again.');
      const artist = await service.chartArtist(input.artistId);
      const form = await service.checkVisitorTop50(sessionId, input);
      await consumeLimit(`top50:email:${form.email}`, TOP50_VISITOR_LIMITS.email, TOP50_MESSAGES.tooMany);
      const owner = await waitingAccountFor(form.email!, artist.username);
      return service.publish({ ...form, ownerId: String(owner._id), owner, chartArtistId: String(artist._id) }, { waiting: true });
    },

    async getVisible(id: string, viewer: AuthContext | undefined): Promise<ContentDoc> {
      const content = await ContentModel.findById(id).lean<ContentDoc>();
      if (!content || !(await canView(content, viewer))) throw notFound('Content not found');
      return content;
    },

    async updateDescription(caller: AuthContext, contentId: string, description: string): Promise<ContentDoc> {
      await editable(contentId, caller);
      if (!description.trim()) fail(MESSAGES.descriptionRequired, 'description');
      publicPages.clear();
      return (await ContentModel.findByIdAndUpdate(contentId, { $set: { description: description.trim() } }, { new: true }).lean<ContentDoc>())!;
    },

    async updateSetting(caller: AuthContext, contentId: string, setting: Schemas['ContentSetting']): Promise<ContentDoc> {
      const content = await editable(contentId, caller);
      const chosen = [setting.public, setting.private, setting.followers].filter(Boolean).length;
      if (chosen !== 1) fail(MESSAGES.privacyExclusive, 'setting');
      if (!isAdmin(caller) && !(await hasPlanAboveFirst(caller.userId))) throw new AppError(403, 'forbidden', MESSAGES.privacyNeedsPlan);
      const listed = isListed({ ...content, setting });
      const stored = {
        public: setting.public,
        private: setting.private,
        followers: setting.followers,
        hidePlayCount: setting.hidePlayCount,
        hideViewCount: setting.hideViewCount,
      };
      // Only while the piece is still listed as it was read: the listed count moves by this change below.
      const updated = await changeTitleTerms(content._id, content, { ...content, listed }, async () =>
        (await updateWhileStill(ContentModel, content._id, { listed: content.listed }, { $set: { setting: stored, listed } }))
          ? readById<ContentDoc>(ContentModel, content._id)
          : null,
      );
      if (!updated) throw new AppError(409, 'conflict', 'This piece was changed at the same moment. Please try again.');
      if (listed !== content.listed) await adjustContentsCount(content.ownerId, listed ? 1 : -1);
      if (listed && !content.listed) await notePieceChange(content);
      publicPages.clear();
      await media.setVisibility(uploadsOf(content), filesVisibility({ ...content, setting }));
      return updated;
    },

    /**
     * Flags: holds a piece off the public lists for review (`isHide`), releases it, or takes it down (hidden from all
     * but its owner and admins, files included). Answers the piece as it was, or null if it was removed.
     */
    async setReview(contentId: Types.ObjectId, review: 'held' | 'released' | 'takenDown'): Promise<ContentDoc | null> {
      const content = await ContentModel.findById(contentId).lean<ContentDoc>();
      if (!content) return null;
      const change = { isHide: review !== 'released', takenDown: review === 'takenDown' || (review === 'held' && content.takenDown) };
      const listed = isListed({ ...content, ...change });
      await changeTitleTerms(contentId, content, { ...content, listed }, () => ContentModel.updateOne({ _id: contentId }, { $set: { ...change, listed } }));
      if (listed !== content.listed) await adjustContentsCount(content.ownerId, listed ? 1 : -1);
      if (listed && !content.listed) await notePieceChange(content);
      if (change.takenDown !== content.takenDown) await media.setVisibility(uploadsOf(content), filesVisibility({ ...content, ...change }));
      publicPages.clear();
      return content;
    },

    /**
     * Counts a change of a piece's file against the member's limit, then checks that the piece's file of `kind` is
     * the caller's to replace: before the new file is read, so that nothing is received for a piece they cannot change.
     */
    async beginFileChange(caller: AuthContext, contentId: string, kind: PieceFileKind): Promise<void> {
      await consumeLimit(`content-files:user:${caller.userId}`, FILE_CHANGE_LIMIT, FILE_MESSAGES.tooMany);
      await replaceable(contentId, caller, kind);
    },

    /** Replaces the piece's file of `kind` with `file` (received after beginFileChange), through the upload pipeline. */
    async replaceFile(caller: AuthContext, contentId: string, kind: PieceFileKind, file: ReceivedFile): Promise<ContentDoc> {
      const content = await replaceable(contentId, caller, kind);
      return files.replace(content, kind, (ownerId) => (kind === 'audio' ? media.storeAudio(file, ownerId) : media.storeImage(file, ownerId, 'content')));
    },

    /** The piece's earlier files its owner (or an admin) may restore. */
    async fileVersions(caller: AuthContext, contentId: string): Promise<Schemas['ContentVersion'][]> {
      return files.versions(await editable(contentId, caller));
    },

    /** Makes an earlier file of the piece its file again. Counted with the replacements. */
    async restoreFile(caller: AuthContext, contentId: string, versionId: string): Promise<ContentDoc> {
      await consumeLimit(`content-files:user:${caller.userId}`, FILE_CHANGE_LIMIT, FILE_MESSAGES.tooMany);
      const content = await editable(contentId, caller);
      if (content.nft) throw new AppError(409, 'conflict', FILE_MESSAGES.nft);
      return files.restore(content, versionId);
    },

    /** The housekeeping job's part: switches left half-way settled, versions past their 30 days removed with their files. */
    sweepFileVersions: () => files.sweep(),

    /** Puts the piece in a project of its owner (asked through `ownsProject`), or out of its project when `projectId` is empty. */
    async updateProject(caller: AuthContext, contentId: string, projectId: string, ownsProject: ProjectOwnerCheck): Promise<ContentDoc> {
      const content = await editable(contentId, caller);
      if (projectId && !(await ownsProject(projectId, String(content.ownerId)))) throw notFound('Project not found');
      await setPieceProject(content._id, projectId || null);
      return (await ContentModel.findById(contentId).lean<ContentDoc>())!;
    },

    /**
     * The owner removes their piece and its files. The listing fee is not refunded (the client warns). An admin
     * deletes another member's piece with `removeAsAdmin`, which the audit log records.
     */
    async remove(caller: AuthContext, contentId: string): Promise<void> {
      const content = await editable(contentId, caller);
      if (String(content.ownerId) !== caller.userId) throw new AppError(403, 'forbidden', ADMIN_PIECE_MESSAGES.ownerDeleteOnly);
      await removePiece(content, media);
    },

    /** Every piece, searched and filtered, for the admin area. */
    adminPieces(caller: AuthContext, query: AdminPieceQuery, removerEmails: readonly string[]): Promise<Schemas['AdminPiecePage']> {
      return adminPiecePage(caller, query, removerEmails, dto);
    },

    /**
     * An admin hides a piece from the pages (held off the lists as for review), or restores it (neither held nor taken
     * down: shown as its owner's setting says).
     */
    async setHiddenByAdmin(caller: AuthContext, contentId: string, hidden: boolean): Promise<{ message: string; audit: AuditDetails }> {
      requireAdmin(caller, hidden ? ADMIN_PIECE_MESSAGES.hideOnlyAdmins : ADMIN_PIECE_MESSAGES.restoreOnlyAdmins);
      const before = await pieceForAdmin(contentId);
      await service.setReview(before._id, hidden ? 'held' : 'released');
      const after = await pieceForAdmin(contentId);
      return {
        message: hidden ? ADMIN_PIECE_MESSAGES.hidden : ADMIN_PIECE_MESSAGES.restored,
        audit: { target: { kind: 'piece', id: contentId }, before: reviewFieldsOf(before), after: reviewFieldsOf(after) },
      };
    },

    /** Deletes any member's piece and its files, as its owner would: only the admins in ADMIN_REMOVE_EMAILS. */
    async removeAsAdmin(caller: AuthContext, contentId: string, removerEmails: readonly string[]): Promise<{ message: string; audit: AuditDetails }> {
      requirePieceRemover(caller, removerEmails, {
        memberMessage: ADMIN_PIECE_MESSAGES.deleteOnlyAdmins,
        adminMessage: ADMIN_PIECE_MESSAGES.deleteOnlyRemovers,
      });
      const content = await pieceForAdmin(contentId);
      await removePiece(content, media);
      return { message: MESSAGES.contentRemoved, audit: deletionAudit(content) };
    },

    /** Everything for the member and admins (a count over their own pieces); the kept public count for others. */
    /** An admin's re-post to the top of Featured, or taking it off again. Answers the message the client shows. */
    async setFeatured(caller: AuthContext, contentId: string, featured: boolean): Promise<{ message: string; audit: AuditDetails }> {
      requireAdmin(caller, 'Only admins can re-post pieces.');
      const content = await ContentModel.findById(contentId, { type: 1, uploadedAt: 1, featuredAt: 1, ownerId: 1 }).lean<
        Pick<ContentDoc, '_id' | 'type' | 'uploadedAt' | 'featuredAt' | 'ownerId'>
      >();
      if (!content) throw notFound('Content not found');
      const featuredAt = featured ? new Date() : null;
      await ContentModel.updateOne({ _id: contentId }, { $set: { featuredAt, featureRank: featureRankOf(featuredAt, content.uploadedAt) } });
      await notePieceChange(content);
      publicPages.clear();
      const audit: AuditDetails = {
        target: { kind: 'piece', id: contentId },
        before: { featuredAt: content.featuredAt?.toISOString() ?? null },
        after: { featuredAt: featuredAt?.toISOString() ?? null },
      };
      const music = content.type === 'music';
      if (featured) return { message: music ? 'This music is re-posted successfully.' : 'This content is re-posted successfully.', audit };
      return { message: music ? 'This Music is removed from the pages successfully.' : 'This content is removed from the pages successfully.', audit };
    },

    async countFor(userId: string, viewer: AuthContext | undefined): Promise<number> {
      const user = await userReads.byId<Pick<UserDoc, 'contentsCount'>>(userId, { contentsCount: 1 });
      if (!user) throw notFound('User not found');
      return isSelfOrAdmin(viewer, userId) ? ContentModel.countDocuments({ ownerId: userId }) : user.contentsCount;
    },
  };
  return service;
}

export type ContentsService = ReturnType<typeof createContentsService>;
