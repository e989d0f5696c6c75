import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { auditDetails } from '../../lib/audit-details';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import { WALLET_MESSAGES, type WalletService } from '../wallet';
import type { HistoryService } from './history.service';

/** The history calls: the member's items, their paid list, and cash-out requests (earn, approve, decline, cancel, restore). */
export function historyRouter(config: AuthConfig, history: HistoryService, wallet: WalletService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/user-history/get-all/:id', signedIn, async (req: ApiRequest<'getUserHistory'>, res: ApiResponse<'getUserHistory'>) => {
    res.json(await history.list(req.auth!, req.params.id, req.query));
  });

  router.get('/user-history/get-paid/:id', signedIn, async (req: ApiRequest<'getPaidHistory'>, res: ApiResponse<'getPaidHistory'>) => {
    res.json(await history.list(req.auth!, req.params.id, req.query, true));
  });

  router.post('/user-history/earn', signedIn, async (req: ApiRequest<'requestCashOut'>, res: ApiResponse<'requestCashOut'>) => {
    const request = await wallet.requestCashOut(req.auth!, req.body.userId);
    res.status(201).json({ message: WALLET_MESSAGES.requested, item: history.requestItem(request, null) });
  });

  router.post('/user-history/approve', signedIn, async (req: ApiRequest<'approveCashOut'>, res: ApiResponse<'approveCashOut'>) => {
    const { request, send, statusBefore } = await wallet.approveCashOut(req.auth!, req.body.historyId);
    auditDetails(res, {
      target: { kind: 'cashOutRequest', id: req.body.historyId },
      before: { status: statusBefore },
      after: { status: request.status, payoutStatus: send?.status ?? null },
    });
    const message = send?.status === 'sent' ? WALLET_MESSAGES.approved : WALLET_MESSAGES.approvedNotSent;
    res.json({ message, item: history.requestItem(request, send) });
  });

  router.post('/user-history/cancel', signedIn, async (req: ApiRequest<'cancelCashOut'>, res: ApiResponse<'cancelCashOut'>) => {
    res.json({ message: WALLET_MESSAGES.cancelled, item: history.requestItem(await wallet.cancelCashOut(req.auth!, req.body.historyId), null) });
  });

  router.post('/admin/cash-outs/:id/decline', signedIn, async (req: ApiRequest<'declineCashOut'>, res: ApiResponse<'declineCashOut'>) => {
    const request = await wallet.declineCashOut(req.auth!, req.params.id, req.body.reason);
    auditDetails(res, {
      target: { kind: 'cashOutRequest', id: req.params.id },
      before: { status: 'pending' },
      after: { status: request.status, reason: request.reason ?? null },
    });
    res.json({ message: WALLET_MESSAGES.declined, item: history.requestItem(request, null) });
  });

  router.post('/admin/cash-outs/:id/restore', signedIn, async (req: ApiRequest<'restoreCashOut'>, res: ApiResponse<'restoreCashOut'>) => {
    const { request, statusBefore } = await wallet.restoreCashOut(req.auth!, req.params.id);
    auditDetails(res, {
      target: { kind: 'cashOutRequest', id: req.params.id },
      before: { status: statusBefore },
      after: { status: request.status },
    });
    res.json({ message: WALLET_MESSAGES.restored, item: history.requestItem(request, null) });
  });

  return router;
}
