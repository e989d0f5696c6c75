import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { embedHostOf } from '../../lib/embed-host';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { optionalAuth, requireAuth } from '../users';
import type { ShareService } from './share.service';

/** Invites by email and the embeddable player's play count (under the site that framed the player). */
export function shareRouter(config: AuthConfig, share: ShareService): Router {
  const router = Router();

  router.post('/user/invite-user', requireAuth(config), async (req: ApiRequest<'inviteUser'>, res: ApiResponse<'inviteUser'>) => {
    res.json(await share.invite(req.auth!, req.body));
  });

  router.post('/content/react', optionalAuth(config), async (req: ApiRequest<'reactContent'>, res: ApiResponse<'reactContent'>) => {
    const embedHost = embedHostOf(req.body.embedReferrer, req.hostname);
    res.json(
      await share.react(req.body.contentId, {
        userId: req.auth?.userId,
        role: req.auth?.role,
        ip: req.ip ?? '',
        userAgent: req.get('user-agent') ?? '',
        embedHost,
      }),
    );
  });

  return router;
}
