/**
 * Members as the admin area sees them: the list (searched, filtered, paged by key), each member's status, and an
 * admin deactivating or reactivating an account. Deactivating also raises `tokenVersion`, so every access token
 * issued before stops at the next request; the caller ends the refresh sessions (auth owns them).
 */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import { anyOf, ours } from '../../lib/query';
import { startsWith, wordStartConditions } from '../../lib/search';
import { roleOf } from './users.mapper';
import { UserModel, type UserDoc } from './users.model';

export type MemberStatus = Schemas['MemberStatus'];
export type MemberStatusFilter = MemberStatus | 'admins';

/** What the list and the view read of an account. */
export type MemberFields = Pick<
  UserDoc,
  '_id' | 'username' | 'fullName' | 'email' | 'image' | 'isActive' | 'deactivatedAt' | 'contentsCount' | 'awaitsRegistration'
> & {
  createdAt?: Date;
};

const MEMBER_FIELDS = {
  username: 1,
  fullName: 1,
  email: 1,
  image: 1,
  isActive: 1,
  deactivatedAt: 1,
  contentsCount: 1,
  awaitsRegistration: 1,
  createdAt: 1,
} as const;

/** Deactivated by an admin comes first: such an account may also never have been activated. */
export function memberStatusOf(user: Pick<UserDoc, 'isActive' | 'deactivatedAt' | 'awaitsRegistration'>): MemberStatus {
  if (user.deactivatedAt) return 'deactivated';
  if (user.awaitsRegistration) return 'unregistered';
  return user.isActive ? 'active' : 'waiting';
}

export function toMemberSummaryDto(user: MemberFields, adminEmails: readonly string[]): Schemas['MemberSummary'] {
  return {
    id: String(user._id),
    username: user.username,
    fullName: user.fullName ?? '',
    email: user.email,
    image: user.image ?? null,
    status: memberStatusOf(user),
    role: roleOf(adminEmails, user.email),
    // Accounts made before timestamps were kept have only the time in their id.
    createdAt: (user.createdAt ?? user._id.getTimestamp()).toISOString(),
    contentsCount: user.contentsCount ?? 0,
  };
}

const STATUS_FILTERS: Record<MemberStatus, Record<string, unknown>> = {
  active: { isActive: true, deactivatedAt: null },
  waiting: { isActive: false, deactivatedAt: null, awaitsRegistration: { $ne: true } },
  unregistered: { awaitsRegistration: true, deactivatedAt: null },
  deactivated: { deactivatedAt: { $ne: null } },
};

/** The admins' member list with its search and status: a cursor pages only the list with the same ones. */
const memberListOf = (q: string | undefined, status: MemberStatusFilter | undefined) =>
  `members:${JSON.stringify([q?.trim().toLowerCase() ?? '', status ?? ''])}`;

const decodeMemberCursor = (list: string, cursor: string | undefined) =>
  decodePageCursor(list, cursor, (key, id) => (key === 'member' && typeof id === 'string' && Types.ObjectId.isValid(id) ? new Types.ObjectId(id) : null));

export interface MemberQuery {
  q?: string;
  status?: MemberStatusFilter;
  cursor?: string;
  limit: number;
  adminEmails: readonly string[];
}

/**
 * One page of accounts, the newest first (by `_id`, whose start is the creation time), after the cursor's last id.
 * On FerretDB this filter and sort read the whole users collection (only `{_id}` filters are pushed down); a page is
 * at most 50 accounts, and only admins ask for it.
 */
export async function memberPage({ q, status, cursor, limit, adminEmails }: MemberQuery): Promise<{ members: MemberFields[]; nextCursor: string | null }> {
  const list = memberListOf(q, status);
  const after = decodeMemberCursor(list, cursor);
  const conditions: Record<string, unknown>[] = [];
  if (after) conditions.push({ _id: { $lt: after } });
  if (status === 'admins') conditions.push({ email: anyOf([...adminEmails]) });
  else if (status) conditions.push({ ...STATUS_FILTERS[status] });
  const typed = q?.trim();
  if (typed) {
    const words = wordStartConditions('searchWords', typed);
    conditions.push({ $or: [{ email: startsWith(typed) }, ...(words.length ? [{ $and: words }] : [])] });
  }
  const rows = await UserModel.find(ours(conditions.length ? { $and: conditions } : {}), MEMBER_FIELDS)
    .sort({ _id: -1 })
    .limit(limit + 1)
    .lean<MemberFields[]>();
  const members = rows.slice(0, limit);
  const last = members[members.length - 1];
  return { members, nextCursor: rows.length > limit && last ? encodePageCursor(list, 'member', String(last._id)) : null };
}

export function memberById(userId: string): Promise<MemberFields | null> {
  return UserModel.findById(new Types.ObjectId(userId), MEMBER_FIELDS).lean<MemberFields>();
}

/**
 * Deactivates (`at`) or reactivates (null) the account; answers it as it was and as it is now, or null when there is
 * no such account. Deactivating an account already deactivated keeps the first time.
 */
export async function setDeactivated(userId: string, at: Date | null): Promise<{ before: MemberFields; after: MemberFields } | null> {
  const before = await memberById(userId);
  if (!before) return null;
  if (Boolean(before.deactivatedAt) === Boolean(at)) return { before, after: before };
  const update = at ? { $set: { deactivatedAt: at }, $inc: { tokenVersion: 1 } } : { $set: { deactivatedAt: null } };
  await UserModel.updateOne({ _id: before._id }, update);
  return { before, after: { ...before, deactivatedAt: at } };
}
