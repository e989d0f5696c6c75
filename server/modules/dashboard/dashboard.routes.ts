import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import { adminDashboard } from './dashboard.service';

export function dashboardRouter(config: AuthConfig): Router {
  const router = Router();
  router.get('/admin/dashboard', requireAuth(config), async (req: ApiRequest<'getAdminDashboard'>, res: ApiResponse<'getAdminDashboard'>) => {
    res.json(await adminDashboard(req.auth!));
  });
  return router;
}
