/**
 * Which flags count toward holding a piece. Accounts cost nothing to make, so a flag counts only from an account
 * that a person has been using: activated, at least COUNTING_ACCOUNT_AGE_MS old, and that has done something on
 * Knack besides flagging: it follows a member, has a piece in the public lists, or has knacked the flagged piece.
 * Each part is a read by `_id` (the member's account with its kept totals, then the knack's ledger key), decided
 * once when the member flags. A flag that does not count is kept all the same, and admins see it.
 */
import type { Types } from 'mongoose';
import { hasKnacked } from '../ledger';
import { userReads, type UserDoc } from '../users';

/** How old an account must be before its flags count toward holding a piece. */
export const COUNTING_ACCOUNT_AGE_MS = 3 * 86_400_000;

type Standing = Pick<UserDoc, 'isActive' | 'createdAt' | 'followingsCount' | 'contentsCount'>;

/** Whether a flag of `userId` on the piece, made at `now`, counts toward holding it. */
export async function flagCounts(userId: string, contentId: Types.ObjectId, now: Date): Promise<boolean> {
  const member = await userReads.byId<Standing>(userId, { isActive: 1, createdAt: 1, followingsCount: 1, contentsCount: 1 });
  if (!member?.isActive || !member.createdAt) return false;
  if (now.getTime() - new Date(member.createdAt).getTime() < COUNTING_ACCOUNT_AGE_MS) return false;
  if (member.followingsCount > 0 || member.contentsCount > 0) return true;
  return hasKnacked(contentId, userId);
}
