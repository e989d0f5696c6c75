import { Router, type Request, type RequestHandler } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiResponse } from '../../lib/openapi-types';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { requireAuth } from '../users';
import type { MediaService, UploadPurpose } from './media.service';
import { acceptOneFile, DEFAULT_UPLOAD_TEMP_DIR, storeTempFile } from './upload.middleware';

/** Uploads per member: generous for real use, a wall for scripts filling the disk. */
export const UPLOAD_LIMIT: Limit = { max: 120, windowMs: 60 * 60_000 };

/**
 * The four upload calls. They run before the contract validator (it cannot stream multipart to disk). Files
 * are streamed into `tempDir` first (default: `knack-uploads` in the system's temp folder).
 */
export function uploadRouter(config: AuthConfig, media: MediaService, tempDir = DEFAULT_UPLOAD_TEMP_DIR): Router {
  const router = Router();
  const auth = requireAuth(config);
  // Counted before the body is read, so a member over the limit sends no bytes to disk.
  const limit: RequestHandler = async (req, _res, next) => {
    await consumeLimit(`upload:user:${req.auth!.userId}`, UPLOAD_LIMIT, 'Too many uploads. Please wait and try again.');
    next();
  };

  const image = (purpose: UploadPurpose) => [
    auth,
    limit,
    acceptOneFile('image', tempDir),
    async (req: Request, res: ApiResponse<'uploadContentPhoto'>) => {
      const upload = await storeTempFile(req.file!, (file) => media.storeImage(file, req.auth!.userId, purpose));
      res.status(201).json({ path: upload.key, upload: media.toUploadDto(upload) });
    },
  ];

  router.post('/api/v2/content/upload-photo', ...image('content'));
  router.post('/api/v2/user/upload-photo', ...image('avatar'));
  router.post('/api/v2/user/upload-header-image', ...image('header'));
  router.post('/api/v2/content/upload-audio', auth, limit, acceptOneFile('audio', tempDir), async (req, res: ApiResponse<'uploadContentAudio'>) => {
    const upload = await storeTempFile(req.file!, (file) => media.storeAudio(file, req.auth!.userId));
    res.status(201).json({ path: upload.key, upload: media.toUploadDto(upload) });
  });
  return router;
}
