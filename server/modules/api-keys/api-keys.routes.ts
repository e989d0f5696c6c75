import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service';

/** A member's API keys, from their settings: list, make, revoke (the contract keeps keys themselves out of these). */
export function apiKeysRouter(config: AuthConfig): Router {
  const router = Router();

  router.get('/api-keys', requireAuth(config), async (req: ApiRequest<'listApiKeys'>, res: ApiResponse<'listApiKeys'>) => {
    res.set('Cache-Control', 'no-store').json(await listApiKeys(req.auth!));
  });

  router.post('/api-keys', requireAuth(config), async (req: ApiRequest<'createApiKey'>, res: ApiResponse<'createApiKey'>) => {
    // The answer holds the key itself: no cache anywhere may keep it.
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json(await createApiKey(req.auth!, req.body));
  });

  router.delete('/api-keys/:keyId', requireAuth(config), async (req: ApiRequest<'revokeApiKey'>, res: ApiResponse<'revokeApiKey'>) => {
    res.json(await revokeApiKey(req.auth!, req.params.keyId));
  });

  return router;
}
