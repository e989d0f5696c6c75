import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import type { WalletsService } from './wallets.service';

/** The wallet link calls: ask for a challenge, link the wallet that signed it, read and unlink one's own link. */
export function walletsRouter(config: AuthConfig, wallets: WalletsService): Router {
  const router = Router();

  router.post('/stellar/wallet/challenge', requireAuth(config), async (req: ApiRequest<'createWalletChallenge'>, res: ApiResponse<'createWalletChallenge'>) => {
    res.json(await wallets.challenge(req.auth!, req.body));
  });

  router.post('/stellar/wallet/link', requireAuth(config), async (req: ApiRequest<'linkWallet'>, res: ApiResponse<'linkWallet'>) => {
    res.json(await wallets.link(req.auth!, req.body));
  });

  router.get('/stellar/wallet', requireAuth(config), async (req: ApiRequest<'getWalletLink'>, res: ApiResponse<'getWalletLink'>) => {
    res.json(await wallets.linkOf(req.auth!));
  });

  router.delete('/stellar/wallet', requireAuth(config), async (req: ApiRequest<'unlinkWallet'>, res: ApiResponse<'unlinkWallet'>) => {
    res.json(await wallets.unlink(req.auth!));
  });

  return router;
}
