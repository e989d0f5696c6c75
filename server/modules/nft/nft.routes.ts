import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import type { NftService } from './nft.service';

/** Minting a piece as an NFT: start (the token code), prepare (pin and build), submit (sign and save), and read a mint. */
export function nftRouter(config: AuthConfig, nft: NftService): Router {
  const router = Router();
  const auth = requireAuth(config);

  router.post('/nft/mints', auth, async (req: ApiRequest<'startNftMint'>, res: ApiResponse<'startNftMint'>) => {
    res.status(201).json(await nft.start(req.auth!, req.body));
  });

  router.get('/nft/mints/:id', auth, async (req: ApiRequest<'getNftMint'>, res: ApiResponse<'getNftMint'>) => {
    res.json(await nft.get(req.auth!, req.params.id));
  });

  router.post('/nft/mints/:id/prepare', auth, async (req: ApiRequest<'prepareNftMint'>, res: ApiResponse<'prepareNftMint'>) => {
    res.json(await nft.prepare(req.auth!, req.params.id, req.body));
  });

  router.post('/nft/mints/:id/submit', auth, async (req: ApiRequest<'submitNftMint'>, res: ApiResponse<'submitNftMint'>) => {
    res.status(201).json(await nft.submit(req.auth!, req.params.id, req.body));
  });

  return router;
}
