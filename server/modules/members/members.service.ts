/**
 * The admin area's members: the list, one member's view (account, money, credits, pieces and the flags on them),
 * deactivating and reactivating, and the throwaway test address for an account made to try Knack out. Every call is
 * for admins only; this module writes nothing of its own, and changes accounts and sessions through their owners.
 */
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { TEST_MAILBOX_DOMAIN, type Mailer } from '../../integrations/mail';
import type { AuditDetails } from '../../lib/audit-details';
import type { AuthContext } from '../../lib/auth-context';
import { AppError, notFound } from '../../lib/errors';
import type { Schemas } from '../../lib/openapi-types';
import { requireAdmin } from '../../lib/permissions';
import { endEverySessionOf } from '../auth';
import { contentLink, contentReads, type ContentDoc } from '../contents';
import { openFlagCounts } from '../flags';
import { balanceOf, userAccount } from '../ledger';
import { creditsOf, memberById, memberPage, memberStatusOf, setDeactivated, toMemberSummaryDto, type MemberStatusFilter } from '../users';

export const MEMBERS_MESSAGES = {
  adminsOnly: 'Only admins can manage members.',
  noMember: 'This member does not exist.',
  deactivated: 'The member is deactivated.',
  reactivated: 'The member is active again.',
  ownAccount: 'You cannot deactivate your own account.',
} as const;

/** Pieces shown in a member's view: the newest. */
export const MEMBER_VIEW_PIECES = 20;

type PieceFields = Pick<ContentDoc, '_id' | 'title' | 'type' | 'ownerUsername' | 'slug' | 'listed' | 'isHide' | 'takenDown'> & { uploadedAt: Date };

export interface MembersDeps {
  /** ADMIN_EMAILS: the list's role and its admins filter. */
  adminEmails: readonly string[];
  mailer: Pick<Mailer, 'kind' | 'outboxDir'>;
  /** Whether the outbox page (/dev/mail) is served: never in production. */
  outboxPageServed: boolean;
}

export function createMembersService({ adminEmails, mailer, outboxPageServed }: MembersDeps) {
  const summary = (member: Parameters<typeof toMemberSummaryDto>[0]) => toMemberSummaryDto(member, adminEmails);

  async function changeStatus(caller: AuthContext | undefined, id: string, deactivate: boolean, now: Date) {
    requireAdmin(caller, MEMBERS_MESSAGES.adminsOnly);
    if (deactivate && caller!.userId === id) throw new AppError(409, 'conflict', MEMBERS_MESSAGES.ownAccount);
    const changed = await setDeactivated(id, deactivate ? now : null);
    if (!changed) throw notFound(MEMBERS_MESSAGES.noMember);
    // Also when it was deactivated already: a session made in between (there should be none) ends too.
    if (deactivate) await endEverySessionOf(id);
    const audit: AuditDetails = {
      target: { kind: 'member', id },
      before: { status: memberStatusOf(changed.before) },
      after: { status: memberStatusOf(changed.after) },
    };
    const member = summary(changed.after);
    return { message: deactivate ? MEMBERS_MESSAGES.deactivated : MEMBERS_MESSAGES.reactivated, member, audit };
  }

  return {
    async list(
      caller: AuthContext | undefined,
      query: { q?: string; status?: MemberStatusFilter; cursor?: string; limit?: number },
    ): Promise<Schemas['MemberPage']> {
      requireAdmin(caller, MEMBERS_MESSAGES.adminsOnly);
      const page = await memberPage({ ...query, limit: query.limit ?? 20, adminEmails });
      return { members: page.members.map(summary), nextCursor: page.nextCursor };
    },

    /** The account by `_id`, then the member's own reads: balance, credits, newest pieces and their open flags. */
    async view(caller: AuthContext | undefined, id: string): Promise<Schemas['MemberView']> {
      requireAdmin(caller, MEMBERS_MESSAGES.adminsOnly);
      const member = await memberById(id);
      if (!member) throw notFound(MEMBERS_MESSAGES.noMember);
      const [balanceMicros, credits, pieces] = await Promise.all([
        balanceOf(userAccount(id)),
        creditsOf(id),
        contentReads.many<PieceFields>(
          { ownerId: new Types.ObjectId(id) },
          {
            projection: { title: 1, type: 1, ownerUsername: 1, slug: 1, listed: 1, isHide: 1, takenDown: 1, uploadedAt: 1 },
            sort: { _id: -1 },
            limit: MEMBER_VIEW_PIECES,
          },
        ),
      ]);
      const flags = (await openFlagCounts({ contentIds: pieces.map((piece) => piece._id) })).byPiece;
      return {
        member: summary(member),
        deactivatedAt: member.deactivatedAt ? member.deactivatedAt.toISOString() : null,
        balanceMicros,
        credits,
        pieces: pieces.map((piece) => ({
          id: String(piece._id),
          title: piece.title,
          type: piece.type,
          link: contentLink(piece),
          listed: piece.listed,
          isHide: piece.isHide ?? false,
          takenDown: piece.takenDown ?? false,
          openFlags: flags.get(String(piece._id)) ?? 0,
          uploadedAt: piece.uploadedAt.toISOString(),
        })),
      };
    },

    deactivate: (caller: AuthContext | undefined, id: string, now = new Date()) => changeStatus(caller, id, true, now),
    reactivate: (caller: AuthContext | undefined, id: string, now = new Date()) => changeStatus(caller, id, false, now),

    /**
     * A new address on the outbox's own domain, which no real mail server accepts: with the outbox every mail to it
     * is kept and shown, with SMTP nothing receives it (the admin area says so).
     */
    testMailbox(caller: AuthContext | undefined): Schemas['TestMailbox'] {
      requireAdmin(caller, MEMBERS_MESSAGES.adminsOnly);
      const email = `test-${randomBytes(5).toString('hex')}@${TEST_MAILBOX_DOMAIN}`;
      const outbox = mailer.kind === 'outbox';
      return {
        email,
        delivery: outbox ? 'outbox' : 'smtp',
        outboxUrl: outbox && mailer.outboxDir && outboxPageServed ? `/dev/mail?to=${encodeURIComponent(email)}` : null,
      };
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
