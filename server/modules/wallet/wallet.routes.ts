import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import { listCashOuts } from './cash-outs.admin';
import type { WalletService } from './wallet.service';

/** The wallet figures, the payout account (payment settings), and the admins' list of cash-out requests. */
export function walletRouter(config: AuthConfig, wallet: WalletService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/wallet/summary/:id', signedIn, async (req: ApiRequest<'getWalletSummary'>, res: ApiResponse<'getWalletSummary'>) => {
    res.json(await wallet.summary(req.auth!, req.params.id));
  });

  router.post('/user-setting/update-payment-info/:id', signedIn, async (req: ApiRequest<'updatePaymentInfo'>, res: ApiResponse<'updatePaymentInfo'>) => {
    res.json(await wallet.updatePaymentInfo(req.auth!, req.params.id, req.body.paypal, req.body.password));
  });

  router.get('/admin/cash-outs', signedIn, async (req: ApiRequest<'listCashOuts'>, res: ApiResponse<'listCashOuts'>) => {
    const page = await listCashOuts(req.auth, req.query);
    res.setHeader('Cache-Control', 'no-store');
    res.json(page);
  });

  return router;
}
