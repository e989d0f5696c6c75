/**
 * Flags: members flag a piece with one of four reasons (one flag per member and piece). Once HOLD_AT_FLAGS members
 * whose flags count (flags.counting.ts) have flagged it, the piece leaves the public lists and its owner is told by
 * mail (flags.hold.ts), until an admin dismisses the flags or takes the piece down. A dismissed flag stays closed:
 * its member can flag the piece again only once it differs from the version the admin reviewed.
 */
import { createHash } from 'node:crypto';
import { Types } from 'mongoose';
import type { Mailer } from '../../integrations/mail';
import type { AuthContext } from '../../lib/auth-context';
import type { AuditDetails } from '../../lib/audit-details';
import { requireAdmin } from '../../lib/permissions';
import { AppError, notFound } from '../../lib/errors';
import { retryLostUpsert } from '../../lib/duplicate-key';
import type { Schemas } from '../../lib/openapi-types';
import { readById } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import { canView, contentReads, type ContentDoc, type ContentsService } from '../contents';
import type { Logger } from '../../lib/logger';
import { userReads, type UserDoc } from '../users';
import { flagCounts } from './flags.counting';
import { pieceReleasedMail, pieceTakenDownMail } from './flags.mails';
import { settleHold } from './flags.hold';
import { FlagHoldModel, FlagModel, flagKey, type FlagDoc, type FlagReason } from './flags.model';

export const FLAG_MESSAGES = {
  flagged: 'Thank you. Our team will look into it.',
  cleared: 'Your flag is taken back.',
  none: 'You have not flagged this piece.',
  forSelf: 'You can only flag as yourself.',
  ownPiece: 'You cannot flag your own piece.',
  noPiece: 'Content not found',
  tooMany: 'Too many flags. Please try again later.',
  adminsOnly: 'Only admins can review flags.',
  noOpenFlags: 'This piece has no open flags.',
  dismissed: 'The flags are dismissed: the piece is back in the lists.',
  dismissedTold: 'The flags are dismissed: the piece is back in the lists, and its owner is told.',
  takenDown: 'The piece is taken down.',
  takenDownTold: 'The piece is taken down, and its owner is told.',
  reviewed: 'Our team has reviewed the flags on this piece. You can flag it again if it changes.',
} as const;

/** Flag changes per member: a person reporting, not a script. */
export const FLAG_LIMIT = { max: 30, windowMs: 3_600_000 };
const MAX_LISTED = 200;
/** The flags of one piece an admin reads at once: who flagged it and why. */
const MAX_FLAGGERS = 100;

type Piece = Pick<ContentDoc, '_id' | 'ownerId' | 'ownerUsername' | 'title' | 'setting' | 'takenDown' | 'isHide'>;
const PIECE_FIELDS = { ownerId: 1, ownerUsername: 1, title: 1, setting: 1, takenDown: 1, isHide: 1 } as const;
/** What a member sees of a piece and its owner can change: a flag reviewed on one version is not about another. */
type Reviewable = Pick<ContentDoc, 'title' | 'description' | 'tags' | 'subTag' | 'media'>;
const REVIEWABLE_FIELDS = { title: 1, description: 1, tags: 1, subTag: 1, media: 1 } as const;
const OPEN = { resolvedAt: null };

/** A short digest of the piece's title, description, tags and files: it differs once any of them changes. */
export function pieceVersion(piece: Reviewable): string {
  const seen = [piece.title, piece.description, piece.tags.map((tag) => tag.name), piece.subTag, piece.media.photoKey, piece.media.audioKey ?? null];
  return createHash('sha256').update(JSON.stringify(seen)).digest('base64url').slice(0, 22);
}

/** Whether a closed flag still stands: the piece is the version the admin reviewed (or one from before versions were noted). */
const stillReviewed = (flag: Pick<FlagDoc, 'reviewedVersion'>, piece: Reviewable) => !flag.reviewedVersion || flag.reviewedVersion === pieceVersion(piece);

export function createFlagsService({ contents, mailer, logger }: { contents: ContentsService; mailer: Mailer; logger: Logger }) {
  /** Mails the owner the decision on their piece; false when it could not be sent (the decision stands). */
  async function tellOwner(piece: Pick<ContentDoc, '_id' | 'ownerId' | 'title'>, hide: boolean, reasons: string[], note: string): Promise<boolean> {
    const owner = await userReads.byId<Pick<UserDoc, 'email' | 'firstName'>>(piece.ownerId, { email: 1, firstName: 1 });
    if (!owner) return false;
    try {
      await mailer.send(
        hide
          ? pieceTakenDownMail(owner.email, owner.firstName ?? '', piece.title, reasons, note)
          : pieceReleasedMail(owner.email, owner.firstName ?? '', piece.title),
      );
      return true;
    } catch (err) {
      logger.error({ err, contentId: String(piece._id) }, 'the owner could not be mailed the decision on their flagged piece');
      return false;
    }
  }

  async function visiblePiece(contentId: string, caller: AuthContext): Promise<Piece & Reviewable> {
    const piece = await contentReads.byId<Piece & Reviewable>(new Types.ObjectId(contentId), { ...PIECE_FIELDS, ...REVIEWABLE_FIELDS });
    if (!piece || !(await canView(piece, caller))) throw notFound(FLAG_MESSAGES.noPiece);
    return piece;
  }

  return {
    /** Flags the piece with `reason`, changes it, or (null) takes the flag back. */
    async set(caller: AuthContext, request: { contentId: string; userId: string; reason: FlagReason | null }, now = new Date()) {
      if (request.userId !== caller.userId) throw new AppError(403, 'forbidden', FLAG_MESSAGES.forSelf);
      const piece = await visiblePiece(request.contentId, caller);
      if (String(piece.ownerId) === caller.userId) throw new AppError(403, 'forbidden', FLAG_MESSAGES.ownPiece);
      await consumeLimit(`flag:${caller.userId}`, FLAG_LIMIT, FLAG_MESSAGES.tooMany, now);
      const _id = flagKey(String(piece._id), caller.userId);
      const existing = await readById<Pick<FlagDoc, 'resolvedAt' | 'reviewedVersion'>>(FlagModel, _id, { resolvedAt: 1, reviewedVersion: 1 });
      // A flag closed on the piece as it still is can be neither changed nor taken back: changing it would re-open
      // what the admin decided, and taking it back would clear the way for a new flag that does.
      if (existing?.resolvedAt && stillReviewed(existing, piece)) throw new AppError(409, 'conflict', FLAG_MESSAGES.reviewed);
      if (request.reason === null) {
        await FlagModel.deleteOne({ _id });
        await settleHold(piece._id, { contents, mailer }, now);
        return { reason: null, message: FLAG_MESSAGES.cleared };
      }
      const userId = new Types.ObjectId(caller.userId);
      const counts = await flagCounts(caller.userId, piece._id, now);
      const flag = { contentId: piece._id, userId, reason: request.reason, at: now, counts, resolvedAt: null, reviewedVersion: null };
      // One document per member and piece: replaced whole, so a second flag at once leaves one flag with one reason.
      await retryLostUpsert(() => FlagModel.replaceOne({ _id }, flag, { upsert: true }));
      await settleHold(piece._id, { contents, mailer }, now);
      return { reason: request.reason, message: FLAG_MESSAGES.flagged };
    },

    async mine(caller: AuthContext, contentId: string) {
      const piece = await visiblePiece(contentId, caller);
      const flag = await readById<Pick<FlagDoc, 'reason' | 'resolvedAt' | 'reviewedVersion'>>(FlagModel, flagKey(String(piece._id), caller.userId), {
        reason: 1,
        resolvedAt: 1,
        reviewedVersion: 1,
      });
      if (!flag) return { reason: null, message: FLAG_MESSAGES.none };
      if (!flag.resolvedAt) return { reason: flag.reason, message: FLAG_MESSAGES.flagged };
      // A flag closed on an earlier version of the piece is not about this one.
      return stillReviewed(flag, piece) ? { reason: flag.reason, message: FLAG_MESSAGES.reviewed } : { reason: null, message: FLAG_MESSAGES.none };
    },

    /** Who flagged a piece and why, newest first, for admins. */
    async ofPiece(caller: AuthContext, contentId: string): Promise<Schemas['PieceFlags']> {
      requireAdmin(caller, FLAG_MESSAGES.adminsOnly);
      const flags = await FlagModel.find({ contentId: new Types.ObjectId(contentId), ...OPEN })
        .sort({ at: -1 })
        .limit(MAX_FLAGGERS)
        .lean<FlagDoc[]>();
      const members = await Promise.all(flags.map((flag) => userReads.byIdShared<Pick<UserDoc, 'username'>>(flag.userId, { username: 1 })));
      return {
        contentId,
        flags: flags.map((flag, index) => ({
          userId: String(flag.userId),
          username: members[index]?.username ?? '',
          reason: flag.reason,
          at: flag.at.toISOString(),
          counts: Boolean(flag.counts),
        })),
      };
    },

    /** The pieces with open flags, the most flagged first, for admins. */
    async open(caller: AuthContext): Promise<Schemas['FlaggedPieces']> {
      requireAdmin(caller, FLAG_MESSAGES.adminsOnly);
      const flags = await FlagModel.find(OPEN, { contentId: 1, reason: 1, at: 1, counts: 1 }).lean<Pick<FlagDoc, 'contentId' | 'reason' | 'at' | 'counts'>[]>();
      const byPiece = new Map<string, { reasons: Map<FlagReason, number>; count: number; counted: number; last: Date }>();
      for (const flag of flags) {
        const key = String(flag.contentId);
        const entry = byPiece.get(key) ?? { reasons: new Map(), count: 0, counted: 0, last: flag.at };
        entry.count += 1;
        if (flag.counts) entry.counted += 1;
        entry.reasons.set(flag.reason, (entry.reasons.get(flag.reason) ?? 0) + 1);
        if (flag.at > entry.last) entry.last = flag.at;
        byPiece.set(key, entry);
      }
      const ranked = [...byPiece.entries()].sort(([, a], [, b]) => b.count - a.count || b.last.getTime() - a.last.getTime()).slice(0, MAX_LISTED);
      const pieces = await Promise.all(ranked.map(([id]) => contentReads.byIdShared<Piece>(new Types.ObjectId(id), PIECE_FIELDS)));
      return {
        pieces: ranked.flatMap(([, entry], index) => {
          const piece = pieces[index];
          if (!piece) return []; // removed since
          return [
            {
              contentId: String(piece._id),
              title: piece.title,
              ownerId: String(piece.ownerId),
              ownerUsername: piece.ownerUsername,
              flagsCount: entry.count,
              countedFlags: entry.counted,
              reasons: [...entry.reasons.entries()].map(([reason, count]) => ({ reason, count })),
              held: Boolean(piece.isHide),
              lastFlaggedAt: entry.last.toISOString(),
            },
          ];
        }),
      };
    },

    /**
     * An admin's decision: dismiss the flags (the piece is listed again) or take the piece down. The flags close on
     * the piece as it is now, which is what the admin reviewed.
     */
    async resolve(caller: AuthContext, request: { contentId: string; decision: 'dismiss' | 'hide'; note?: string }, now = new Date()) {
      requireAdmin(caller, FLAG_MESSAGES.adminsOnly);
      const contentId = new Types.ObjectId(request.contentId);
      const reviewed = await contentReads.byId<Reviewable>(contentId, REVIEWABLE_FIELDS);
      const reviewedVersion = reviewed ? pieceVersion(reviewed) : null;
      // The reasons as they stood, for the owner's mail (read before the flags close).
      const reasons = [...new Set((await FlagModel.find({ contentId, ...OPEN }, { reason: 1 }).lean<Pick<FlagDoc, 'reason'>[]>()).map((flag) => flag.reason))];
      const { modifiedCount } = await FlagModel.updateMany({ contentId, ...OPEN }, { $set: { resolvedAt: now, reviewedVersion } });
      const held = await FlagHoldModel.deleteOne({ _id: contentId });
      const wasHeld = held.deletedCount > 0;
      if (!modifiedCount && !held.deletedCount) throw notFound(FLAG_MESSAGES.noOpenFlags);
      const piece = await contents.setReview(contentId, request.decision === 'hide' ? 'takenDown' : 'released');
      if (!piece) throw notFound(FLAG_MESSAGES.noPiece);
      // setReview answers the piece as it was; the audit log also records it as it is now.
      const changed = await contentReads.byId<Pick<ContentDoc, 'isHide' | 'takenDown' | 'listed'>>(contentId, { isHide: 1, takenDown: 1, listed: 1 });
      const audit: AuditDetails = {
        target: { kind: 'piece', id: request.contentId },
        before: { openFlags: modifiedCount, isHide: Boolean(piece.isHide), takenDown: Boolean(piece.takenDown), listed: Boolean(piece.listed) },
        after: changed && { openFlags: 0, isHide: Boolean(changed.isHide), takenDown: Boolean(changed.takenDown), listed: Boolean(changed.listed) },
      };
      const hide = request.decision === 'hide';
      // A dismissal is news to the owner only when the flags had held the piece (they were mailed about the hold).
      const told = hide || wasHeld ? await tellOwner(piece, hide, reasons, request.note?.trim() ?? '') : false;
      const message = hide ? (told ? FLAG_MESSAGES.takenDownTold : FLAG_MESSAGES.takenDown) : told ? FLAG_MESSAGES.dismissedTold : FLAG_MESSAGES.dismissed;
      return { message, audit: { ...audit, after: audit.after && { ...audit.after, ownerTold: told, note: request.note?.trim() || null } } };
    },
  };
}

export type FlagsService = ReturnType<typeof createFlagsService>;
