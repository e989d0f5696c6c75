import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { auditDetails } from '../../lib/audit-details';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import type { MembersService } from './members.service';

/** The admin area's members: list, view, deactivate, reactivate, and the test mailbox. */
export function membersRouter(config: AuthConfig, members: MembersService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/admin/members', signedIn, async (req: ApiRequest<'listMembers'>, res: ApiResponse<'listMembers'>) => {
    res.json(await members.list(req.auth, req.query));
  });

  router.get('/admin/members/:id', signedIn, async (req: ApiRequest<'getMember'>, res: ApiResponse<'getMember'>) => {
    res.json(await members.view(req.auth, req.params.id));
  });

  router.post('/admin/members/:id/deactivate', signedIn, async (req: ApiRequest<'deactivateMember'>, res: ApiResponse<'deactivateMember'>) => {
    const { audit, ...answer } = await members.deactivate(req.auth, req.params.id);
    auditDetails(res, audit);
    res.json(answer);
  });

  router.post('/admin/members/:id/reactivate', signedIn, async (req: ApiRequest<'reactivateMember'>, res: ApiResponse<'reactivateMember'>) => {
    const { audit, ...answer } = await members.reactivate(req.auth, req.params.id);
    auditDetails(res, audit);
    res.json(answer);
  });

  router.get('/admin/test-mailbox', signedIn, (req: ApiRequest<'getTestMailbox'>, res: ApiResponse<'getTestMailbox'>) => {
    res.json(members.testMailbox(req.auth));
  });

  return router;
}
