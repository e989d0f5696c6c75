import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { auditDetails } from '../../lib/audit-details';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import type { FlagsService } from './flags.service';

/** The flag calls: a member's flag on a piece, and the admins' review. */
export function flagsRouter(config: AuthConfig, flags: FlagsService): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.post('/flag/set', signedIn, async (req: ApiRequest<'setFlag'>, res: ApiResponse<'setFlag'>) => {
    res.json(await flags.set(req.auth!, req.body));
  });

  router.get('/flag/get-mine/:id', signedIn, async (req: ApiRequest<'getMyFlag'>, res: ApiResponse<'getMyFlag'>) => {
    res.json(await flags.mine(req.auth!, req.params.id));
  });

  router.get('/flag/get-open', signedIn, async (req: ApiRequest<'getOpenFlags'>, res: ApiResponse<'getOpenFlags'>) => {
    res.json(await flags.open(req.auth!));
  });

  router.get('/flag/by-piece/:id', signedIn, async (req: ApiRequest<'getPieceFlags'>, res: ApiResponse<'getPieceFlags'>) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await flags.ofPiece(req.auth!, req.params.id));
  });

  router.post('/flag/resolve', signedIn, async (req: ApiRequest<'resolveFlags'>, res: ApiResponse<'resolveFlags'>) => {
    const { audit, ...answer } = await flags.resolve(req.auth!, req.body);
    auditDetails(res, audit);
    res.json(answer);
  });

  return router;
}
