/**
 * The admin area's pieces: every piece listed, searched and filtered, and the admin's hide, restore and delete. Each
 * change answers what the audit log records of it (the piece, its review fields before and after).
 */
import { Types } from 'mongoose';
import type { AuditDetails } from '../../lib/audit-details';
import type { AuthContext } from '../../lib/auth-context';
import { notFound } from '../../lib/errors';
import type { Schemas } from '../../lib/openapi-types';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import { mayRemoveAnyPiece, requireAdmin } from '../../lib/permissions';
import { ours } from '../../lib/query';
import { startsWith, wordStartConditions } from '../../lib/search';
import { ContentModel, type ContentDoc } from './contents.model';

export const ADMIN_PIECE_MESSAGES = {
  listOnlyAdmins: 'Only admins can list every piece.',
  hideOnlyAdmins: 'Only admins can hide pieces.',
  restoreOnlyAdmins: 'Only admins can restore pieces.',
  deleteOnlyAdmins: 'Only admins can delete any piece.',
  deleteOnlyRemovers: 'Only the admins allowed to remove any content (ADMIN_REMOVE_EMAILS) can delete it.',
  /** An admin deleting another member's piece through the owner's call: that one is not recorded, the admin one is. */
  ownerDeleteOnly: 'Admins delete another member’s piece from the admin area.',
  hidden: 'The piece is hidden from the pages.',
  restored: 'The piece is restored.',
} as const;

export interface AdminPieceQuery {
  q?: string;
  type?: Schemas['TagType'];
  status?: Schemas['AdminPieceFilter'];
  cursor?: string;
  limit?: number;
}

type Reviewed = Pick<ContentDoc, 'setting' | 'listed' | 'isHide' | 'takenDown'>;

/** Where a piece stands, as the admin area shows it: taken down, held off the lists, on them, or kept private by its owner. */
export function adminStatusOf(content: Reviewed): Schemas['AdminPiece']['status'] {
  if (content.takenDown) return 'removed';
  if (content.isHide) return 'hidden';
  return content.listed ? 'public' : 'private';
}

const STATUS_FILTERS: Record<Schemas['AdminPieceFilter'], Record<string, unknown>> = {
  public: { listed: true },
  hidden: { isHide: true, takenDown: { $ne: true } },
  removed: { takenDown: true },
};

/** The admins' piece list with its filters and search: a cursor pages only the list with the same ones. */
const adminPieceListOf = (query: AdminPieceQuery) =>
  `admin-pieces:${JSON.stringify([query.type ?? '', query.status ?? '', query.q?.trim().toLowerCase() ?? ''])}`;

const decodeAdminCursor = (list: string, cursor: string | undefined) =>
  decodePageCursor(list, cursor, (key, id) =>
    key === null && typeof id === 'string' && Types.ObjectId.isValid(id) && id.length === 24 ? new Types.ObjectId(id) : null,
  );

/**
 * A page of every piece, the newest first (by `_id`, which starts with its creation time), with the filters as
 * equalities and the search as anchored word starts: on MongoDB one `_id` range of the index; on FerretDB a scan
 * of `contents`, which an admin's occasional search can afford.
 */
export async function adminPiecePage(
  caller: AuthContext,
  query: AdminPieceQuery,
  removerEmails: readonly string[],
  dto: (content: ContentDoc, reader: AuthContext) => Promise<Schemas['Content']>,
): Promise<Schemas['AdminPiecePage']> {
  requireAdmin(caller, ADMIN_PIECE_MESSAGES.listOnlyAdmins);
  const size = query.limit ?? 20;
  const list = adminPieceListOf(query);
  const after = decodeAdminCursor(list, query.cursor);
  const q = query.q?.trim() ?? '';
  const words = q ? wordStartConditions('titleWords', q) : [];
  const byOwner = { ownerUsername: startsWith(q) };
  const filter = ours({
    ...(query.type && { type: query.type }),
    ...(query.status && STATUS_FILTERS[query.status]),
    ...(after && { _id: { $lt: after } }),
    ...(q && { $or: words.length ? [{ $and: words }, byOwner] : [byOwner] }),
  });
  const rows = await ContentModel.find(filter)
    .sort({ _id: -1 })
    .limit(size + 1)
    .lean<ContentDoc[]>();
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  return {
    pieces: await Promise.all(items.map(async (content) => ({ content: await dto(content, caller), status: adminStatusOf(content) }))),
    nextCursor: rows.length > size && last ? encodePageCursor(list, null, String(last._id)) : null,
    canDelete: mayRemoveAnyPiece(caller, removerEmails),
  };
}

/** A piece's review fields, as the audit log keeps them before and after a change. */
export const reviewFieldsOf = (content: Reviewed) => ({
  isHide: Boolean(content.isHide),
  takenDown: Boolean(content.takenDown),
  listed: Boolean(content.listed),
});

/** The piece an admin acts on, read by `_id` (404 when it does not exist). */
export async function pieceForAdmin(contentId: string): Promise<ContentDoc> {
  const content = await ContentModel.findById(contentId).lean<ContentDoc>();
  if (!content) throw notFound('Content not found');
  return content;
}

/** What the audit log keeps of a deleted piece: what it was, and whose. */
export function deletionAudit(content: ContentDoc): AuditDetails {
  return {
    target: { kind: 'piece', id: String(content._id) },
    before: { title: content.title, ownerId: String(content.ownerId), ownerUsername: content.ownerUsername, isPaidOut: Boolean(content.isPaidOut) },
    after: null,
  };
}
