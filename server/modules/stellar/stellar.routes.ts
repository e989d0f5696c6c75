import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import type { StellarService } from './stellar.service';

/** The Stellar calls: the XLM rate of a US dollar (public), and an account's check before minting (members). */
export function stellarRouter(config: AuthConfig, stellar: StellarService): Router {
  const router = Router();

  router.get('/stellar/rate/usd', async (_req: ApiRequest<'getStellarUsdRate'>, res: ApiResponse<'getStellarUsdRate'>) => {
    res.json(await stellar.usdRate());
  });

  router.get(
    '/stellar/check-account/:address',
    requireAuth(config),
    async (req: ApiRequest<'checkStellarAccount'>, res: ApiResponse<'checkStellarAccount'>) => {
      res.json(await stellar.checkAccount(req.auth!, req.params.address));
    },
  );

  return router;
}
