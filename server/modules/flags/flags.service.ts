/**
 * Flags: members flag a piece with one of four reasons (one flag per member and piece). Once members of
 * HOLD_AT_FLAGS different accounts have flagged it, the piece leaves the public lists and its owner is told by
 * mail, until an admin dismisses the flags or takes the piece down.
 */
import { Types } from 'mongoose';
import type { Mailer } from '../../integrations/mail';
import type { AuthContext } from '../../lib/auth-context';
import { AppError, notFound } from '../../lib/errors';
import { isDuplicateKey } from '../../lib/mutex';
import type { Schemas } from '../../lib/openapi-types';
import { insertWhole, readById } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import { canView, contentReads, type ContentDoc, type ContentsService } from '../contents';
import { userReads, type UserDoc } from '../users';
import { pieceHeldMail } from './flags.mails';
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
  takenDown: 'The piece is taken down.',
} as const;

/** Flags from this many different members hold a piece off the public lists until an admin decides. */
export const HOLD_AT_FLAGS = 5;
/** Flag changes per member: a person reporting, not a script. */
export const FLAG_LIMIT = { max: 30, windowMs: 3_600_000 };
const MAX_LISTED = 200;

type Piece = Pick<ContentDoc, '_id' | 'ownerId' | 'ownerUsername' | 'title' | 'setting' | 'takenDown' | 'isHide'>;
const PIECE_FIELDS = { ownerId: 1, ownerUsername: 1, title: 1, setting: 1, takenDown: 1, isHide: 1 } as const;
const OPEN = { resolvedAt: null };

export function createFlagsService({ contents, mailer }: { contents: ContentsService; mailer: Mailer }) {
  async function visiblePiece(contentId: string, caller: AuthContext): Promise<Piece> {
    const piece = await contentReads.byId<Piece>(new Types.ObjectId(contentId), PIECE_FIELDS);
    if (!piece || !(await canView(piece, caller))) throw notFound(FLAG_MESSAGES.noPiece);
    return piece;
  }

  const adminOnly = (caller: AuthContext) => {
    if (caller.role !== 'admin') throw new AppError(403, 'forbidden', FLAG_MESSAGES.adminsOnly);
  };

  /** At the threshold, the one caller that inserts the hold takes the piece off the lists and mails its owner. */
  async function holdIfFlaggedEnough(piece: Piece, now: Date): Promise<void> {
    const open = await FlagModel.find({ contentId: piece._id, ...OPEN }, { reason: 1 }).lean<Pick<FlagDoc, 'reason'>[]>();
    if (open.length < HOLD_AT_FLAGS) return;
    try {
      await insertWhole(FlagHoldModel, { _id: piece._id, at: now });
    } catch (err) {
      if (isDuplicateKey(err)) return; // held already
      throw err;
    }
    await contents.setReview(piece._id, 'held');
    const owner = await userReads.byId<Pick<UserDoc, 'email' | 'firstName'>>(piece.ownerId, { email: 1, firstName: 1 });
    if (owner) await mailer.send(pieceHeldMail(owner.email, owner.firstName ?? '', piece.title, [...new Set(open.map((flag) => flag.reason))]));
  }

  return {
    /** Flags the piece with `reason`, changes it, or (null) takes the flag back. */
    async set(caller: AuthContext, request: { contentId: string; userId: string; reason: FlagReason | null }, now = new Date()) {
      if (request.userId !== caller.userId) throw new AppError(403, 'forbidden', FLAG_MESSAGES.forSelf);
      const piece = await visiblePiece(request.contentId, caller);
      if (String(piece.ownerId) === caller.userId) throw new AppError(403, 'forbidden', FLAG_MESSAGES.ownPiece);
      await consumeLimit(`flag:${caller.userId}`, FLAG_LIMIT, FLAG_MESSAGES.tooMany, now);
      const _id = flagKey(String(piece._id), caller.userId);
      if (request.reason === null) {
        await FlagModel.deleteOne({ _id });
        return { reason: null, message: FLAG_MESSAGES.cleared };
      }
      const flag = { contentId: piece._id, userId: new Types.ObjectId(caller.userId), reason: request.reason, at: now, resolvedAt: null };
      // One document per member and piece: replaced whole, so a second flag at once leaves one flag with one reason.
      await FlagModel.replaceOne({ _id }, flag, { upsert: true }).catch(async (err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
        await FlagModel.replaceOne({ _id }, flag);
      });
      await holdIfFlaggedEnough(piece, now);
      return { reason: request.reason, message: FLAG_MESSAGES.flagged };
    },

    async mine(caller: AuthContext, contentId: string) {
      const piece = await visiblePiece(contentId, caller);
      const flag = await readById<Pick<FlagDoc, 'reason'>>(FlagModel, flagKey(String(piece._id), caller.userId), { reason: 1 });
      return { reason: flag?.reason ?? null, message: flag ? FLAG_MESSAGES.flagged : FLAG_MESSAGES.none };
    },

    /** The pieces with open flags, the most flagged first, for admins. */
    async open(caller: AuthContext): Promise<Schemas['FlaggedPieces']> {
      adminOnly(caller);
      const flags = await FlagModel.find(OPEN, { contentId: 1, reason: 1, at: 1 }).lean<Pick<FlagDoc, 'contentId' | 'reason' | 'at'>[]>();
      const byPiece = new Map<string, { reasons: Map<FlagReason, number>; count: number; last: Date }>();
      for (const flag of flags) {
        const key = String(flag.contentId);
        const entry = byPiece.get(key) ?? { reasons: new Map(), count: 0, last: flag.at };
        entry.count += 1;
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
              reasons: [...entry.reasons.entries()].map(([reason, count]) => ({ reason, count })),
              held: Boolean(piece.isHide),
              lastFlaggedAt: entry.last.toISOString(),
            },
          ];
        }),
      };
    },

    /** An admin's decision: dismiss the flags (the piece is listed again) or take the piece down. */
    async resolve(caller: AuthContext, request: { contentId: string; decision: 'dismiss' | 'hide' }, now = new Date()) {
      adminOnly(caller);
      const contentId = new Types.ObjectId(request.contentId);
      const { modifiedCount } = await FlagModel.updateMany({ contentId, ...OPEN }, { $set: { resolvedAt: now } });
      const held = await FlagHoldModel.deleteOne({ _id: contentId });
      if (!modifiedCount && !held.deletedCount) throw notFound(FLAG_MESSAGES.noOpenFlags);
      const piece = await contents.setReview(contentId, request.decision === 'hide' ? 'takenDown' : 'released');
      if (!piece) throw notFound(FLAG_MESSAGES.noPiece);
      return { message: request.decision === 'hide' ? FLAG_MESSAGES.takenDown : FLAG_MESSAGES.dismissed };
    },
  };
}

export type FlagsService = ReturnType<typeof createFlagsService>;
