import { randomBytes } from 'node:crypto';
import { Schema, model, type Types } from 'mongoose';
import type { AuditValues } from '../../lib/audit-details';

/**
 * One admin action that changed something, written once when it succeeded and never changed or removed (the module
 * has no call that would). The `_id` starts with the time as ISO text (`2026-11-27T11:13:51.123Z-9f2c4b1a0e7d`), so
 * the key itself orders the log: a page is a range of `_id` read in `_id` order, which MongoDB serves from the `_id`
 * index with no sort; the random end tells apart entries of the same millisecond. The actor's email is kept as it
 * was then, so the entry still names them once their account is gone.
 */
const auditEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    actorId: { type: Schema.Types.ObjectId, required: true },
    actorEmail: { type: String, required: true },
    action: { type: String, required: true },
    targetKind: { type: String, default: null },
    targetId: { type: String, default: null },
    before: { type: Schema.Types.Mixed, default: null },
    after: { type: Schema.Types.Mixed, default: null },
    ip: { type: String, required: true },
    userAgent: { type: String, default: null },
    requestId: { type: String, default: null },
  },
  { versionKey: false, minimize: false },
);
// The filters of the log, each read newest first by key (used on MongoDB; FerretDB on SQLite scans either way).
auditEntrySchema.index({ actorId: 1, _id: -1 });
auditEntrySchema.index({ action: 1, _id: -1 });
auditEntrySchema.index({ targetId: 1, _id: -1 });

export interface AuditEntryDoc {
  _id: string;
  at: Date;
  actorId: Types.ObjectId;
  actorEmail: string;
  action: string;
  targetKind: string | null;
  targetId: string | null;
  before: AuditValues | null;
  after: AuditValues | null;
  ip: string;
  userAgent: string | null;
  requestId: string | null;
}

export const AuditEntryModel = model<AuditEntryDoc>('AuditEntry', auditEntrySchema, 'audit_entries');

/** The key of an entry made at `at`: its time as ISO text, then 12 random hex digits. */
export const auditEntryId = (at: Date) => `${at.toISOString()}-${randomBytes(6).toString('hex')}`;
