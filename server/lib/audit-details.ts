/**
 * What an admin call tells the audit log about what it did: its target, and the target's changed fields before and
 * after. The audit module records every admin call that changes something and succeeds (who, which call, when, from
 * where) on its own, from the contract's `x-admin` mark; a handler adds these details with one call before it
 * answers, `auditDetails(res, { target, before, after })`.
 */
import type { Response } from 'express';

/** What an admin action acted on: its kind (`piece`, `member`, `cashOutRequest`, …) and its id. */
export interface AuditTarget {
  kind: string;
  id: string;
}

/** Field names and their values, as small JSON: text, numbers, yes/no or null. */
export type AuditValues = Record<string, string | number | boolean | null>;

export interface AuditDetails {
  target: AuditTarget;
  /** The changed fields as they were; null when the target did not exist before (a code created). */
  before: AuditValues | null;
  /** The changed fields as they became; null when the target no longer exists. */
  after: AuditValues | null;
}

const KEY = 'auditDetails';

/** Notes on the answer what the admin call did, for the audit entry written as it answers. */
export function auditDetails(res: Response, details: AuditDetails): void {
  res.locals[KEY] = details;
}

/** The details a handler noted on this answer, if any. */
export const auditDetailsOf = (res: Response): AuditDetails | undefined => res.locals[KEY] as AuditDetails | undefined;
