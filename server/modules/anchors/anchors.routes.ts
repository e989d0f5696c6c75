import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import type { AnchorsService } from './anchors.service';

/** The proof of a ledger entry against its day's anchored root. */
export function anchorsRouter(config: AuthConfig, anchors: AnchorsService): Router {
  const router = Router();

  router.get('/ledger/proofs/:entryId', requireAuth(config), async (req: ApiRequest<'getLedgerProof'>, res: ApiResponse<'getLedgerProof'>) => {
    res.json(await anchors.proofOf(req.auth!, req.params.entryId));
  });

  return router;
}
