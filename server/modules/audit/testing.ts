/**
 * What tests use of this module beyond its index.ts: the model, to read what was recorded. Production code never
 * imports this file (the linter refuses it), so nothing but the module itself can write the log.
 */
export { AuditEntryModel, type AuditEntryDoc } from './audit.model';
