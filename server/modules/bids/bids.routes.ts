import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { setPayerCookie } from '../../integrations/payments';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requestOrigin } from '../../lib/public-origin';
import { optionalAuth, requireAuth } from '../users';
import type { BidsService } from './bids.service';

/** Bids on pieces in XLM and their sale: bid, sell, approve (sign), cancel, relist, and the reads of the buy/sell panel. */
export function bidsRouter(config: AuthConfig, bids: BidsService): Router {
  const router = Router();
  const auth = requireAuth(config);
  const maybeAuth = optionalAuth(config);

  router.post('/bid/update', auth, async (req: ApiRequest<'updateBid'>, res: ApiResponse<'updateBid'>) => {
    res.status(201).json(await bids.update(req.auth!, req.body));
  });

  router.post('/bid/sell', auth, async (req: ApiRequest<'sellBid'>, res: ApiResponse<'sellBid'>) => {
    res.json(await bids.sell(req.auth!, req.body));
  });

  router.post('/bid/approve', auth, async (req: ApiRequest<'approveBid'>, res: ApiResponse<'approveBid'>) => {
    res.json(await bids.approve(req.auth!, req.body));
  });

  router.post('/bid/cancel', auth, async (req: ApiRequest<'cancelBid'>, res: ApiResponse<'cancelBid'>) => {
    res.json(await bids.cancel(req.auth!, req.body));
  });

  router.post('/bid/relist', auth, async (req: ApiRequest<'relistBid'>, res: ApiResponse<'relistBid'>) => {
    const answer = await bids.relist(req.auth!, req.body, requestOrigin(req));
    if (answer.status !== 'checkout') return void res.json(answer);
    const { payerCookie, ...checkout } = answer;
    setPayerCookie(res, payerCookie, config.cookieSecure);
    res.json(checkout);
  });

  router.get('/bid/get/:id', maybeAuth, async (req: ApiRequest<'getBid'>, res: ApiResponse<'getBid'>) => {
    res.json(await bids.get(req.auth, req.params.id));
  });

  router.get('/bid/getAllByContent/:id', maybeAuth, async (req: ApiRequest<'getBidsByContent'>, res: ApiResponse<'getBidsByContent'>) => {
    res.json(await bids.list(req.auth, req.params.id));
  });

  return router;
}
