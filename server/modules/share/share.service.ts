/**
 * Sharing: a member invites someone by email to a piece, and the embeddable player counts plays. An embed
 * play earns nothing (money moves only through knack/add); it is counted once per visitor per piece per UTC
 * day, under the site that framed the player (lib/embed-host.ts).
 */
import { isDuplicateKey } from '../../lib/duplicate-key';
import { createHmac } from 'node:crypto';
import { Types } from 'mongoose';
import { MESSAGES, PATTERNS } from '../../../generated/validation';
import type { Mailer } from '../../integrations/mail';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { ours } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import type { AuthContext } from '../../lib/auth-context';
import { canSee, canView, type ContentDoc, contentLink, countEmbedPlay, contentReads, shownCount } from '../contents';
import { userReads } from '../users';
import { inviteMail } from './share.mails';
import { EmbedPlayModel, type EmbedPlayDoc } from './share.model';

export const SHARE_MESSAGES = {
  inviteSent: 'Invite sent successfully',
  forSelf: 'You can only send invites as yourself.',
  tooManyInvites: 'You have sent many invites. Please try again later.',
  mailFailed: 'We could not send the email. Please try again in a moment.',
  notFound: 'Content not found',
} as const;

/** Invites a member may send in an hour (each one is a mail to a stranger: keep it from being a spam relay). */
export const INVITE_LIMIT = { max: 20, windowMs: 3_600_000 };

/** Who played, for counting: the member, else a keyed hash of the address and browser (no raw IP is stored); and where. */
export interface Visitor {
  userId?: string;
  /** The member's role: an admin, like the owner, is told a count the owner hides. */
  role?: AuthContext['role'];
  ip: string;
  userAgent: string;
  /** The site that framed the player (lib/embed-host.ts), null or absent for Knack itself. */
  embedHost?: string | null;
}

/**
 * The embed plays of [from, to), for the earnings-rollups job that counts them by member and site. On MongoDB the `at`
 * index reads only that span; FerretDB reads the whole collection for it (a job, never a request).
 */
export const embedPlaysBetween = (from: Date, to: Date) =>
  EmbedPlayModel.find(ours({ at: { $gte: from, $lt: to } }), { contentId: 1, ownerId: 1, host: 1, at: 1 }).lean<EmbedPlayDoc[]>();

/** When the first embed play of all was counted, or null when none was (where a full recount of the rollups starts). */
export async function firstEmbedPlayAt(): Promise<Date | null> {
  const [first] = await EmbedPlayModel.find({}, { at: 1 }).sort({ at: 1 }).limit(1).lean<Pick<EmbedPlayDoc, 'at'>[]>();
  return first?.at ?? null;
}

/** Embed plays per piece, counted from the plays themselves (the facts the rankings job resets `playCount` from). */
export async function embedPlayCounts(): Promise<Map<string, number>> {
  const rows = await EmbedPlayModel.aggregate<{ _id: Types.ObjectId; count: number }>([{ $group: { _id: '$contentId', count: { $sum: 1 } } }]);
  return new Map(rows.map((row) => [String(row._id), row.count]));
}

export function createShareService({ mailer, publicUrl, secret, logger }: { mailer: Mailer; publicUrl: string; secret: string; logger: Logger }) {
  const visitorKey = ({ userId, ip, userAgent }: Visitor) =>
    userId ? `u${userId}` : `h${createHmac('sha256', secret).update(`embed-visitor:${ip}:${userAgent}`).digest('base64url').slice(0, 22)}`;

  return {
    async invite(caller: AuthContext, request: { userId: string; contentId: string; email: string }) {
      if (request.userId !== caller.userId) throw new AppError(403, 'forbidden', SHARE_MESSAGES.forSelf);
      const email = request.email.trim();
      if (!PATTERNS.email.test(email)) throw badRequest(MESSAGES.emailMustBeValid, [{ path: 'email', message: MESSAGES.emailMustBeValid }]);
      const content = await contentReads.byId<ContentDoc>(request.contentId);
      if (!content || !(await canView(content, caller))) throw notFound(SHARE_MESSAGES.notFound);
      await consumeLimit(`invite:${caller.userId}`, INVITE_LIMIT, SHARE_MESSAGES.tooManyInvites);
      const inviter = await userReads.byId(caller.userId, { firstName: 1, lastName: 1, username: 1 });
      const name = [inviter?.firstName, inviter?.lastName].filter(Boolean).join(' ') || inviter?.username || 'A Knack member';
      try {
        await mailer.send(inviteMail(email, name, content.title, `${publicUrl}${contentLink(content)}`));
      } catch (err) {
        logger.error({ err }, 'invite mail failed');
        throw new AppError(503, 'mail_failed', SHARE_MESSAGES.mailFailed);
      }
      return { message: SHARE_MESSAGES.inviteSent };
    },

    /**
     * Counts one embed play of a public piece (once per visitor per day), under the site that framed the player, and
     * answers the play count, or null when its owner hides it from this visitor.
     */
    async react(contentId: string, visitor: Visitor, now = new Date()) {
      const content = await contentReads.byId<Pick<ContentDoc, '_id' | 'setting' | 'takenDown' | 'playCount' | 'type' | 'ownerId'>>(contentId, {
        setting: 1,
        takenDown: 1,
        playCount: 1,
        type: 1,
        ownerId: 1,
      });
      // An embed plays for everyone: only a piece everyone may see (public, not taken down by an admin) counts.
      if (!content || !canSee(content, undefined)) throw notFound(SHARE_MESSAGES.notFound);
      const reader = visitor.userId ? { userId: visitor.userId, role: visitor.role ?? 'user' } : null;
      const shown = (playCount: number) => shownCount(content, reader, playCount);
      const day = now.toISOString().slice(0, 10);
      try {
        await EmbedPlayModel.create({
          _id: `play:${contentId}:${visitorKey(visitor)}:${day}`,
          contentId: new Types.ObjectId(contentId),
          at: now,
          ownerId: content.ownerId,
          ...(visitor.embedHost ? { host: visitor.embedHost } : {}),
        });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        return { playCount: shown(content.playCount ?? 0), counted: false };
      }
      return { playCount: shown(await countEmbedPlay(contentId)), counted: true };
    },
  };
}

export type ShareService = ReturnType<typeof createShareService>;
