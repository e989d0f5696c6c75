/**
 * The audit log of admins' actions: recorded on its own for every admin call that changes something (the
 * contract's `x-admin`), read by admins, and never changed or removed. Handlers add what they acted on with
 * `auditDetails` (server/lib/audit-details.ts). An account's deletion keeps its entries (docs/audit-log.md).
 */
export { auditAdminActions } from './audit.recording';
export { auditRouter } from './audit.routes';
export { AUDIT_MESSAGES, auditLogPage } from './audit.service';
