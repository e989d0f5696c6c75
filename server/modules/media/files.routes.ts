/**
 * /files/<key>: stored media through the storage driver, with HTTP Range (206), ETag / 304 and short
 * caching (PUBLIC_CACHE_CONTROL says why). Files that are not public answer only to a valid signed URL (else
 * 404, so a private piece's existence is not revealed), which ends within minutes (media.signing.ts), and the
 * browser keeps what it opened no longer than the link lasts. Content-Type is the sniffed one, with nosniff (helmet).
 */
import type { Request, Response } from 'express';
import { Router } from 'express';
import type { Storage } from '../../integrations/storage';
import { assertSafeKey, PUBLIC_CACHE_CONTROL } from '../../integrations/storage';
import { sendFile } from '../../lib/send-file';
import { StoredFileModel, type StoredFileDoc } from './media.model';
import { secondsLeft, verifySignature } from './media.signing';

export function filesRouter(storage: Storage, signingSecret: string): Router {
  const router = Router();
  // Kept by no cache: the file may be there for this visitor, or for everyone, a moment later.
  const notFound = (res: Response) => res.status(404).set('Cache-Control', 'no-store').json({ message: 'File not found', code: 'not_found' });

  router.get('/files/{*key}', async (req: Request, res: Response) => {
    const key = ([] as string[]).concat((req.params as { key?: string | string[] }).key ?? []).join('/');
    try {
      assertSafeKey(key);
    } catch {
      return notFound(res);
    }
    const record = await StoredFileModel.findById(key).lean<StoredFileDoc>();
    if (!record) return notFound(res);
    const isPublic = record.visibility === 'public';
    if (!isPublic && !verifySignature(signingSecret, key, req.query.exp, req.query.sig)) return notFound(res);
    const stat = await storage.stat(key);
    if (!stat) return notFound(res);

    // A file seen through a signed URL is for that viewer only, while the link lasts: no shared cache keeps it.
    // no-transform keeps byte ranges exact (no compression on the way).
    const privateCaching = `private, max-age=${typeof req.query.exp === 'string' ? secondsLeft(req.query.exp) : 0}`;
    await sendFile(req, res, {
      size: stat.size,
      etag: `"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`,
      lastModified: stat.mtime,
      contentType: record.contentType,
      cacheControl: `${isPublic ? PUBLIC_CACHE_CONTROL : privateCaching}, no-transform`,
      open: (range) => storage.read(key, range),
    });
  });

  return router;
}
