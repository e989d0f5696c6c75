import { Router } from 'express';
import { Types } from 'mongoose';
import type { AuthConfig } from '../../config';
import { auditDetails } from '../../lib/audit-details';
import '../../lib/action-key';
import { badRequest, notFound } from '../../lib/errors';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAdmin, requireSelfOrAdmin } from '../../lib/permissions';
import { adjustCredits, creditMovementsOf, creditsOf, CREDIT_MESSAGES, type CreditTier } from './credits';
import { requireAuth } from './users.guards';
import { UserModel } from './users.model';

const ADMINS_ONLY = 'Only admins can change credits.';

/** Listing credits: what explains a member's credits, and admins' corrections (members never change their own). */
export function creditsRouter(config: AuthConfig): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  const adjust = (tier: CreditTier) => async (req: ApiRequest<'updateStandardCredits'>, res: ApiResponse<'updateStandardCredits'>) => {
    requireAdmin(req.auth, ADMINS_ONLY);
    const { userId, amount, note } = req.body;
    if (!(await UserModel.exists({ _id: new Types.ObjectId(userId) }))) throw notFound('User not found');
    const credits = await adjustCredits(userId, tier, amount, req.auth!.userId, note?.trim() || null, req.actionKey);
    if (!credits) throw badRequest(CREDIT_MESSAGES.belowZero, [{ path: 'amount', message: CREDIT_MESSAGES.belowZero }]);
    // The credits were read under the member's credit lock, just after the change: before it is exactly one amount less.
    const field = tier === 'standard' ? 'sCredit' : 'pCredit';
    auditDetails(res, {
      target: { kind: 'member', id: userId },
      before: { [field]: credits[field] - amount },
      after: { [field]: credits[field], note: note?.trim() || null },
    });
    res.json({ credits });
  };
  router.post('/user-setting/update-scredits', signedIn, adjust('standard'));
  router.post('/user-setting/update-pcredits', signedIn, adjust('premium'));

  router.get('/user-setting/credits/:id', signedIn, async (req: ApiRequest<'getCreditMovements'>, res: ApiResponse<'getCreditMovements'>) => {
    requireSelfOrAdmin(req.auth, req.params.id, 'User not found');
    const [credits, movements] = await Promise.all([creditsOf(req.params.id), creditMovementsOf(req.params.id)]);
    res.json({
      credits,
      movements: movements.map(({ _id, standard, premium, reason, ref, note, at }) => ({
        id: _id,
        standard,
        premium,
        reason,
        ref,
        note,
        at: at.toISOString(),
      })),
    });
  });

  return router;
}
