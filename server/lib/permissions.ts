/**
 * Who may do what by role: the one place the server checks for an admin (the linter refuses such a check anywhere
 * else). The role comes from the session check (an admin is a member whose email is in ADMIN_EMAILS); what a
 * caller may do beyond that is whose thing it is.
 *
 * Each refusal has one answer:
 * - a call only admins may make answers a member 403 with the call's own message (requireAdmin): the call is
 *   public knowledge, only the power is missing;
 * - a member's own thing (their settings, money, pieces, projects, or any call made for them by id) asked for by
 *   anyone else answers 404 with the message of a missing one (requireSelfOrAdmin, requireOwnerOrAdmin), so that
 *   nobody learns by probing which ids exist or what they hold.
 * The `is…` forms answer yes or no, for a caller who is shown more (hidden counts, every piece) or may do more.
 */
import type { Types } from 'mongoose';
import type { AuthContext } from './auth-context';
import { AppError, notFound } from './errors';

/** The part of a caller the checks read; null or undefined for a visitor who is not signed in. */
export type Actor = Pick<AuthContext, 'userId' | 'role'> | null | undefined;

/** A member's id as requests (a string) and documents (an ObjectId) carry it. */
export type MemberId = string | Types.ObjectId;

/** Whether the caller is an admin. */
export function isAdmin(actor: Actor): boolean {
  return actor?.role === 'admin';
}

/** Whether the caller is the member `userId`, or an admin. */
export function isSelfOrAdmin(actor: Actor, userId: MemberId): boolean {
  return Boolean(actor && (isAdmin(actor) || actor.userId === String(userId)));
}

/** Whether the caller owns the thing whose owner is `ownerId`, or is an admin. */
export function isOwnerOrAdmin(actor: Actor, ownerId: MemberId): boolean {
  return isSelfOrAdmin(actor, ownerId);
}

/** Whether the caller is an admin who may delete any member's piece: their email is in ADMIN_REMOVE_EMAILS (`removerEmails`). */
export function mayRemoveAnyPiece(actor: (Actor & { email?: string }) | null | undefined, removerEmails: readonly string[]): boolean {
  return Boolean(actor?.email && isAdmin(actor) && removerEmails.includes(actor.email.toLowerCase()));
}

/**
 * Refuses anyone but the admins who may delete any piece: 403 with `memberMessage` for a member (an admins-only
 * call, 'Only admins…'), and with `adminMessage` for an admin whose email is not in ADMIN_REMOVE_EMAILS.
 */
export function requirePieceRemover(
  actor: (Actor & { email?: string }) | null | undefined,
  removerEmails: readonly string[],
  { memberMessage, adminMessage }: { memberMessage: string; adminMessage: string },
): void {
  requireAdmin(actor, memberMessage);
  if (!mayRemoveAnyPiece(actor, removerEmails)) throw new AppError(403, 'forbidden', adminMessage);
}

/** Refuses anyone but an admin: 403 with `message`, the call's own words (e.g. 'Only admins can review flags.'). */
export function requireAdmin(actor: Actor, message: string): void {
  if (!isAdmin(actor)) throw new AppError(403, 'forbidden', message);
}

/**
 * Refuses anyone but the member `userId` and admins: 404 with `message`, the words the call answers for a member
 * who does not exist (e.g. 'This member does not exist.').
 */
export function requireSelfOrAdmin(actor: Actor, userId: MemberId, message: string): void {
  if (!isSelfOrAdmin(actor, userId)) throw notFound(message);
}

/**
 * Refuses anyone but the owner `ownerId` of a thing and admins: 404 with `message`, the words the call answers for
 * a thing that does not exist (e.g. 'Project not found').
 */
export function requireOwnerOrAdmin(actor: Actor, ownerId: MemberId, message: string): void {
  if (!isOwnerOrAdmin(actor, ownerId)) throw notFound(message);
}
