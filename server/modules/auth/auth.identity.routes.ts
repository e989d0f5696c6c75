/** The calls that change a member's username or email (auth.identity.ts), and the two links of an email change. */
import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth, roleOf, toUserDto } from '../users';
import type { IdentityService } from './auth.identity';
import { MESSAGES } from './auth.rules';

export function identityRouter(config: AuthConfig, identity: IdentityService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.post('/user-setting/update-username/:id', signedIn, async (req: ApiRequest<'updateUsername'>, res: ApiResponse<'updateUsername'>) => {
    const user = await identity.changeUsername(req.auth!, req.params.id, req.body.username);
    res.json({ message: MESSAGES.success, user: toUserDto(user, roleOf(config.adminEmails, user.email)) });
  });

  router.post('/user-setting/update-email/:id', signedIn, async (req: ApiRequest<'requestEmailChange'>, res: ApiResponse<'requestEmailChange'>) => {
    const { message, user } = await identity.requestEmailChange(req.auth!, req.params.id, req.body.email, req.body.password);
    res.json({ message, user: toUserDto(user, roleOf(config.adminEmails, user.email)) });
  });

  router.post('/auth/confirm-email-change', async (req: ApiRequest<'confirmEmailChange'>, res: ApiResponse<'confirmEmailChange'>) => {
    res.json(await identity.confirmEmailChange(req.body.token));
  });

  router.post('/auth/cancel-email-change', async (req: ApiRequest<'cancelEmailChange'>, res: ApiResponse<'cancelEmailChange'>) => {
    res.json(await identity.cancelEmailChange(req.body.token));
  });

  return router;
}
