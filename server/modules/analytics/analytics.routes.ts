import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { sendPrivateJson } from '../../lib/public-responses';
import { requireAuth } from '../users';
import { earningsAnalytics, embedHostEarnings, listingForecast } from './analytics.service';

/** A member's earnings analytics and their plays and earnings by embedding site, and the listing-fee forecast of a piece. */
export function analyticsRouter(config: AuthConfig): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/analytics/earnings/:id', signedIn, async (req: ApiRequest<'getEarningsAnalytics'>, res: ApiResponse<'getEarningsAnalytics'>) => {
    // The same question asked again within a second (the modal reopened, a burst) is answered in front of the app.
    sendPrivateJson(req, res, await earningsAnalytics(req.auth!, req.params.id, req.query));
  });

  router.get('/analytics/embed-hosts/:id', signedIn, async (req: ApiRequest<'getEmbedHostEarnings'>, res: ApiResponse<'getEmbedHostEarnings'>) => {
    sendPrivateJson(req, res, await embedHostEarnings(req.auth!, req.params.id, req.query));
  });

  router.get('/analytics/forecast/:id', signedIn, async (req: ApiRequest<'getListingForecast'>, res: ApiResponse<'getListingForecast'>) => {
    res.setHeader('Cache-Control', 'private, no-cache');
    res.json(await listingForecast(req.auth!, req.params.id));
  });

  return router;
}
