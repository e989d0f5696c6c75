import { Router, type Request, type RequestHandler } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiResponse } from '../../lib/openapi-types';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { requireUploadPass, UPLOAD_PASS_HEADER } from '../../lib/upload-pass';
import { requireAuth } from '../users';
import type { MediaService, UploadPurpose } from './media.service';
import { acceptOneFile, DEFAULT_UPLOAD_TEMP_DIR, storeTempFile } from './upload.middleware';

/** Uploads per member: generous for real use, a wall for scripts filling the disk. */
export const UPLOAD_LIMIT: Limit = { max: 120, windowMs: 60 * 60_000 };

/**
 * A visitor's Top 50 uploads: per address, and per pass (a song and its cover, with room to change each a few
 * times). Both are counted before the pass is read and before any byte is written.
 */
export const VISITOR_UPLOAD_LIMITS = {
  address: { max: 20, windowMs: 60 * 60_000 } satisfies Limit,
  pass: { max: 6, windowMs: 2 * 60 * 60_000 } satisfies Limit,
};

const TOO_MANY_UPLOADS = 'Too many uploads. Please wait and try again.';

/** Who the files of an upload belong to: the member, or a visitor's upload session (their Top 50 pass). */
const uploaderOf = (req: Request) => req.uploaderId ?? req.auth!.userId;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** A visitor's upload session, from their Top 50 upload pass (the Top 50's upload calls only). */
      uploaderId?: string;
    }
  }
}

/**
 * The four upload calls. They run before the contract validator (it cannot stream multipart to disk). Files
 * are streamed into `tempDir` first (default: `knack-uploads` in the system's temp folder).
 */
export function uploadRouter(config: AuthConfig, media: MediaService, tempDir = DEFAULT_UPLOAD_TEMP_DIR): Router {
  const router = Router();
  const auth = requireAuth(config);
  // Counted before the body is read, so a member over the limit sends no bytes to disk.
  const limit: RequestHandler = async (req, _res, next) => {
    await consumeLimit(`upload:user:${req.auth!.userId}`, UPLOAD_LIMIT, TOO_MANY_UPLOADS);
    next();
  };
  const member: RequestHandler[] = [auth, limit];
  /**
   * A piece's files: a member's, or a visitor's with a Top 50 upload pass (no token sent). The visitor's address is
   * counted first, then the pass is checked and counted, all before the body is read; the files then go through
   * the same checks as a member's, and can only be used by a Top 50 entry made with the same pass.
   */
  const memberOrPass: RequestHandler[] = [
    async (req, res, next) => {
      if (req.headers.authorization) return auth(req, res, next);
      await consumeLimit(`upload:visitor:ip:${req.ip ?? 'unknown'}`, VISITOR_UPLOAD_LIMITS.address, TOO_MANY_UPLOADS);
      const pass = requireUploadPass(config.keys.uploadPasses, req.headers[UPLOAD_PASS_HEADER]);
      await consumeLimit(`upload:pass:${pass.sessionId}`, VISITOR_UPLOAD_LIMITS.pass, TOO_MANY_UPLOADS);
      req.uploaderId = pass.sessionId;
      next();
    },
    async (req, res, next) => (req.uploaderId ? next() : limit(req, res, next)),
  ];

  const image = (purpose: UploadPurpose, who: RequestHandler[]) => [
    ...who,
    acceptOneFile('image', tempDir),
    async (req: Request, res: ApiResponse<'uploadContentPhoto'>) => {
      const upload = await storeTempFile(req.file!, (file) => media.storeImage(file, uploaderOf(req), purpose));
      res.status(201).json({ path: upload.key, upload: media.toUploadDto(upload) });
    },
  ];

  router.post('/api/v2/content/upload-photo', ...image('content', memberOrPass));
  router.post('/api/v2/user/upload-photo', ...image('avatar', member));
  router.post('/api/v2/user/upload-header-image', ...image('header', member));
  router.post('/api/v2/content/upload-audio', ...memberOrPass, acceptOneFile('audio', tempDir), async (req, res: ApiResponse<'uploadContentAudio'>) => {
    const upload = await storeTempFile(req.file!, (file) => media.storeAudio(file, uploaderOf(req)));
    res.status(201).json({ path: upload.key, upload: media.toUploadDto(upload) });
  });
  return router;
}
