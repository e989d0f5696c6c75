/**
 * The audit log: one entry written for each admin action that changed something, and the admins' paged, filtered
 * reading of it. Nothing here changes or removes an entry, and nothing else may (the model is not exported).
 */
import { Types } from 'mongoose';
import type { AuditDetails } from '../../lib/audit-details';
import { decodeNewestCursor, newestPage } from '../../lib/newest-first';
import type { Schemas } from '../../lib/openapi-types';
import { ours } from '../../lib/query';
import { toAuditEntryDto } from './audit.mapper';
import { AuditEntryModel, auditEntryId, type AuditEntryDoc } from './audit.model';

export const AUDIT_MESSAGES = {
  adminsOnly: 'Only admins can read the audit log.',
} as const;

/** Who did what, when and from where, as the request showed it; the target and its change come from the handler. */
export interface AuditFacts {
  at: Date;
  actorId: string;
  actorEmail: string;
  action: string;
  ip: string;
  userAgent: string | null;
  requestId: string | null;
}

/** Inserts the entry of one admin action (a new key each time: an insert never overwrites an entry). */
export async function recordAuditEntry(facts: AuditFacts, details: AuditDetails | undefined): Promise<void> {
  const entry: AuditEntryDoc = {
    _id: auditEntryId(facts.at),
    at: facts.at,
    actorId: new Types.ObjectId(facts.actorId),
    actorEmail: facts.actorEmail,
    action: facts.action,
    targetKind: details?.target.kind ?? null,
    targetId: details?.target.id ?? null,
    before: details?.before ?? null,
    after: details?.after ?? null,
    ip: facts.ip,
    userAgent: facts.userAgent,
    requestId: facts.requestId,
  };
  await AuditEntryModel.collection.insertOne(entry as never);
}

export interface AuditFilters {
  actorId?: string;
  action?: string;
  targetId?: string;
  /** Inclusive. */
  from?: string;
  /** Exclusive. */
  to?: string;
  cursor?: string;
  limit?: number;
}

/**
 * A page of the log, the newest first. The time range and the page's position are both bounds on `_id` (it starts
 * with the entry's time), so every page is one key range read in key order.
 */
export async function auditLogPage(filters: AuditFilters): Promise<Schemas['AuditPage']> {
  const size = filters.limit ?? 20;
  // The range (`from`, `to`) bounds the pages like the cursor does, so it is not part of the list's name.
  const list = `audit:${JSON.stringify([filters.actorId ?? '', filters.action ?? '', filters.targetId ?? ''])}`;
  const position = decodeNewestCursor(list, filters.cursor);
  const below = [filters.to && new Date(filters.to).toISOString(), position?.id].filter((bound): bound is string => Boolean(bound)).sort()[0];
  const key: Record<string, string> = {};
  if (filters.from) key.$gte = new Date(filters.from).toISOString();
  if (below) key.$lt = below;
  const rows = await AuditEntryModel.find(
    ours({
      ...(filters.actorId && { actorId: new Types.ObjectId(filters.actorId) }),
      ...(filters.action && { action: filters.action }),
      ...(filters.targetId && { targetId: filters.targetId }),
      ...(Object.keys(key).length > 0 && { _id: key }),
    }),
  )
    .sort({ _id: -1 })
    .limit(size + 1)
    .lean<AuditEntryDoc[]>();
  const { items, nextCursor } = newestPage(list, rows, size);
  return { entries: items.map(toAuditEntryDto), nextCursor };
}
