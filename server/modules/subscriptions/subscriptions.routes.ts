import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth, requireSelfOrAdmin } from '../users';
import { PlanModel, type PlanDoc } from './plans.model';
import { SubscriptionModel, type SubscriptionDoc } from './subscriptions.model';

export function subscriptionsRouter(config: AuthConfig): Router {
  const router = Router();

  router.get('/subscription/all-plans', async (_req, res: ApiResponse<'getAllPlans'>) => {
    const plans = await PlanModel.find().sort({ planId: 1 }).lean<PlanDoc[]>();
    res.json({ plans: plans.map(({ planId, name, sCredits, pCredits }) => ({ planId, name, sCredits, pCredits })) });
  });

  router.get('/subscription/:id', requireAuth(config), requireSelfOrAdmin, async (req: ApiRequest<'getSubscription'>, res: ApiResponse<'getSubscription'>) => {
    const current = await SubscriptionModel.findOne({ userId: req.params.id, status: 'active' }).sort({ createdAt: -1 }).lean<SubscriptionDoc>();
    res.json({
      subscription: current
        ? { subscriptionId: current.subscriptionId, planId: current.planId, userId: String(current.userId), createdAt: current.createdAt.toISOString() }
        : null,
    });
  });

  return router;
}
