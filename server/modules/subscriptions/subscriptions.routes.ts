import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { setPayerCookie } from '../../integrations/payments';
import { LISTING_FEES, PREMIUM_KNACK_MICROS } from '../../lib/listing-fees';
import { microsToUsd } from '../../lib/money';
import { auditDetails } from '../../lib/audit-details';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireSelfOrAdmin } from '../../lib/permissions';
import { requestOrigin } from '../../lib/public-origin';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { requireAuth } from '../users';
import { currentSubscriptionOf } from './subscriptions.current';
import { allPlans, SUBSCRIPTION_MESSAGES, toPlanDto, toSubscriptionDto, type SubscriptionsService } from './subscriptions.service';

/**
 * Subscription checkouts a member may open in an hour: each opens a checkout at the provider, and someone
 * choosing a plan (and perhaps cancelling a checkout or two) does not come near 20.
 */
export const SUBSCRIBE_LIMIT: Limit = { max: 20, windowMs: 60 * 60_000 };

export function subscriptionsRouter(config: AuthConfig, subscriptions: SubscriptionsService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/subscription/all-plans', async (_req, res: ApiResponse<'getAllPlans'>) => {
    res.json({
      plans: (await allPlans()).map(toPlanDto),
      listingFees: {
        standard: microsToUsd(LISTING_FEES.standard),
        premium: microsToUsd(LISTING_FEES.premium),
        premiumFromKnack: microsToUsd(PREMIUM_KNACK_MICROS),
      },
    });
  });

  router.post('/subscription/create', signedIn, async (req: ApiRequest<'createSubscription'>, res: ApiResponse<'createSubscription'>) => {
    await consumeLimit(`subscribe:user:${req.auth!.userId}`, SUBSCRIBE_LIMIT, 'Too many subscription attempts. Please wait and try again.');
    const { payerCookie, ...checkout } = await subscriptions.start(req.auth!, req.body.planId, requestOrigin(req));
    setPayerCookie(res, payerCookie, config.cookieSecure);
    res.status(201).json(checkout);
  });

  router.post('/subscription/update', signedIn, async (req: ApiRequest<'updateSubscription'>, res: ApiResponse<'updateSubscription'>) => {
    res.json(await subscriptions.setRenewal(req.auth!, req.body.subscriptionId, req.body.cancelAtPeriodEnd));
  });

  router.post('/subscription/update-plan', signedIn, async (req: ApiRequest<'updatePlan'>, res: ApiResponse<'updatePlan'>) => {
    const { planId, ...change } = req.body;
    const { plan, audit } = await subscriptions.updatePlan(req.auth!, planId, change);
    auditDetails(res, audit);
    res.json({ plan });
  });

  router.get('/subscription/status/:id', signedIn, async (req: ApiRequest<'getSubscriptionStatus'>, res: ApiResponse<'getSubscriptionStatus'>) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await subscriptions.status(req.auth!, req.params.id));
  });

  router.get('/subscription/:id', signedIn, async (req: ApiRequest<'getSubscription'>, res: ApiResponse<'getSubscription'>) => {
    requireSelfOrAdmin(req.auth, req.params.id, SUBSCRIPTION_MESSAGES.notFound);
    const current = await currentSubscriptionOf(req.params.id);
    res.json({ subscription: current && toSubscriptionDto(current) });
  });

  return router;
}
