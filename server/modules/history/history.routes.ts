import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { auditDetails } from '../../lib/audit-details';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import { WALLET_MESSAGES, type WalletService } from '../wallet';
import type { HistoryService } from './history.service';
import { openStatement } from './history.statement';

/** The member stopped the download: nothing is wrong, the rest of the file is simply not read. */
const memberLeft = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_STREAM_PREMATURE_CLOSE';

/**
 * The history calls: the member's items, their paid list, their statement file, and cash-out requests (earn, approve,
 * decline, cancel, restore).
 */
export function historyRouter(config: AuthConfig, history: HistoryService, wallet: WalletService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/user-history/get-all/:id', signedIn, async (req: ApiRequest<'getUserHistory'>, res: ApiResponse<'getUserHistory'>) => {
    res.json(await history.list(req.auth!, req.params.id, req.query));
  });

  router.get('/user-history/get-paid/:id', signedIn, async (req: ApiRequest<'getPaidHistory'>, res: ApiResponse<'getPaidHistory'>) => {
    res.json(await history.list(req.auth!, req.params.id, req.query, true));
  });

  router.get('/wallet/statement/:id', signedIn, async (req: ApiRequest<'downloadStatement'>, res: ApiResponse<'downloadStatement'>) => {
    const statement = await openStatement(req.auth!, req.params.id, req.query);
    // A file to save (its type from its name), never kept by a cache on the way: it holds the member's money.
    res.attachment(statement.filename).set('Cache-Control', 'no-store');
    try {
      // Written only as fast as the member downloads it: the stream asks the statement for more when it drains.
      await pipeline(Readable.from(statement.body), res);
    } catch (err) {
      // The headers are out, so a failure can only cut the file short: the download shows as unfinished.
      if (!memberLeft(err)) throw err;
    } finally {
      await statement.close();
    }
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
