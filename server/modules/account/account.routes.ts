import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { auditDetails } from '../../lib/audit-details';
import { requireAuth } from '../users';
import type { AccountService } from './account.service';

/** The settings' "Your data" calls: download one's data, delete one's account; and an admin deleting a member's. */
export function accountRouter(config: AuthConfig, account: AccountService): Router {
  const router = Router();

  router.get('/user-setting/download-data/:id', requireAuth(config), async (req: ApiRequest<'downloadMyData'>, res: ApiResponse<'downloadMyData'>) => {
    const { filename, data } = await account.exportData(req.auth!, req.params.id);
    // A file to save, never kept by a cache on the way: it holds the member's personal data.
    res.attachment(filename).set('Cache-Control', 'no-store');
    res.json(data);
  });

  router.post('/user-setting/delete-account/:id', requireAuth(config), async (req: ApiRequest<'deleteMyAccount'>, res: ApiResponse<'deleteMyAccount'>) => {
    res.json(await account.deleteAccount(req.auth!, req.params.id, req.body));
  });

  router.post('/user/delete/:id', requireAuth(config), async (req: ApiRequest<'deleteMember'>, res: ApiResponse<'deleteMember'>) => {
    const { message, audit } = await account.deleteMember(req.auth, req.params.id, req.body);
    auditDetails(res, audit);
    res.json({ message });
  });

  return router;
}
