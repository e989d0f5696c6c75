import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { embedHostOf } from '../../lib/embed-host';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { optionalAuth, requireAuth } from '../users';
import type { KnacksService } from './knacks.service';

/** The knack calls: play sessions, knacks, the verification code, what a piece and a member have. */
export function knacksRouter(config: AuthConfig, knacks: KnacksService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.post('/knack/play', signedIn, async (req: ApiRequest<'startPlay'>, res: ApiResponse<'startPlay'>) => {
    res.status(201).json(await knacks.startPlay(req.auth!, req.body.contentId));
  });

  router.post('/knack/add', signedIn, async (req: ApiRequest<'addKnack'>, res: ApiResponse<'addKnack'>) => {
    const { embedReferrer, ...knack } = req.body;
    res.json(await knacks.add(req.auth!, { ...knack, embedHost: embedHostOf(embedReferrer, req.hostname) }));
  });

  router.post('/knack/over-knack', signedIn, async (req: ApiRequest<'requestKnackCode'>, res: ApiResponse<'requestKnackCode'>) => {
    res.json(await knacks.requestCode(req.auth!, req.body.userId));
  });

  router.get('/knack/get-money/:id', optionalAuth(config), async (req: ApiRequest<'getKnackMoney'>, res: ApiResponse<'getKnackMoney'>) => {
    res.json(await knacks.money(req.params.id, req.auth));
  });

  router.get('/knack/get-available-knacks', signedIn, async (req: ApiRequest<'getAvailableKnacks'>, res: ApiResponse<'getAvailableKnacks'>) => {
    res.json(await knacks.available(req.auth!));
  });

  return router;
}
