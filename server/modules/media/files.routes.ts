/**
 * /files/<key>: stored media through the storage driver, with HTTP Range (206), ETag / 304 and short
 * caching (PUBLIC_CACHE_CONTROL says why). Files that are not public answer only to a valid signed URL (else
 * 404, so a private piece's existence is not revealed), which ends within minutes (media.signing.ts), and the
 * browser keeps what it opened no longer than the link lasts. Content-Type is the sniffed one, with nosniff (helmet).
 */
import type { Request, Response } from 'express';
import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../../integrations/storage';
import { assertSafeKey, PUBLIC_CACHE_CONTROL } from '../../integrations/storage';
import { StoredFileModel, type StoredFileDoc } from './media.model';
import { secondsLeft, verifySignature } from './media.signing';

function parseRange(header: string, size: number): { start: number; end: number } | 'invalid' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (!match[1] && !match[2])) return 'invalid';
  let start: number;
  let end: number;
  if (!match[1]) {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

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

    const etag = `"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Last-Modified', stat.mtime.toUTCString());
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Type', record.contentType);
    // A file seen through a signed URL is for that viewer only, while the link lasts: no shared cache keeps it.
    // no-transform keeps byte ranges exact (no compression on the way).
    const privateCaching = `private, max-age=${typeof req.query.exp === 'string' ? secondsLeft(req.query.exp) : 0}`;
    res.setHeader('Cache-Control', `${isPublic ? PUBLIC_CACHE_CONTROL : privateCaching}, no-transform`);
    if (req.headers['if-none-match'] === etag) return res.status(304).end();

    let range: { start: number; end: number } | undefined;
    if (req.headers.range) {
      const parsed = parseRange(req.headers.range, stat.size);
      if (parsed === 'invalid') {
        res.setHeader('Content-Range', `bytes */${stat.size}`);
        return res.status(416).end();
      }
      range = parsed;
    }
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`);
      res.setHeader('Content-Length', range.end - range.start + 1);
    } else {
      res.setHeader('Content-Length', stat.size);
    }
    if (req.method === 'HEAD') return res.end();
    const body = await storage.read(key, range);
    await pipeline(body, res).catch(() => body.destroy());
  });

  return router;
}
