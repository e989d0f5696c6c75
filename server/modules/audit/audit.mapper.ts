import type { Schemas } from '../../lib/openapi-types';
import type { AuditEntryDoc } from './audit.model';

/** An entry as the API answers it: the actor and the target each in one object, the request id left out. */
export function toAuditEntryDto(entry: AuditEntryDoc): Schemas['AuditEntry'] {
  return {
    id: entry._id,
    at: entry.at.toISOString(),
    actor: { id: String(entry.actorId), email: entry.actorEmail },
    action: entry.action,
    target: entry.targetKind && entry.targetId ? { kind: entry.targetKind, id: entry.targetId } : null,
    before: entry.before,
    after: entry.after,
    ip: entry.ip,
    userAgent: entry.userAgent,
  };
}
