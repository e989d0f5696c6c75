import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAdmin } from '../../lib/permissions';
import { requireAuth } from '../users';
import { AUDIT_MESSAGES, auditLogPage } from './audit.service';

/** The audit log's one call: reading it. There is no call that writes, changes or removes an entry. */
export function auditRouter(config: AuthConfig): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/admin/audit', signedIn, async (req: ApiRequest<'getAuditLog'>, res: ApiResponse<'getAuditLog'>) => {
    requireAdmin(req.auth, AUDIT_MESSAGES.adminsOnly);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await auditLogPage(req.query));
  });

  return router;
}
