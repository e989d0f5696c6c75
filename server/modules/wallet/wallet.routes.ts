import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import type { WalletService } from './wallet.service';

/** The wallet figures and the payout account (payment settings). */
export function walletRouter(config: AuthConfig, wallet: WalletService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/wallet/summary/:id', signedIn, async (req: ApiRequest<'getWalletSummary'>, res: ApiResponse<'getWalletSummary'>) => {
    res.json(await wallet.summary(req.auth!, req.params.id));
  });

  router.post('/user-setting/update-payment-info/:id', signedIn, async (req: ApiRequest<'updatePaymentInfo'>, res: ApiResponse<'updatePaymentInfo'>) => {
    res.json(await wallet.updatePaymentInfo(req.auth!, req.params.id, req.body.paypal, req.body.password));
  });

  return router;
}
