/**
 * /ipfs/{cid}: the files the embedded default pinned, as an IPFS gateway serves them. A CID names its bytes for
 * ever, so they are cached for a year as immutable, with the CID as ETag; byte ranges for players (server/lib/send-file.ts).
 * Anything that is no CID answers 400 before any file is looked at (a CID is letters and digits only, so no
 * path leaves the folder), and a CID nobody pinned here 404.
 *
 * The files are members' uploads served from our own origin: each answer carries a sandboxing Content-Security-Policy
 * (an HTML or SVG file opened from here runs no script and reaches nothing), and only passive types keep their
 * content type (a pinned script or page goes out as application/octet-stream, which no browser runs or renders).
 */
import { Router, type Request, type Response } from 'express';
import { sendFile } from '../../lib/send-file';
import { readPinned, type LocalIpfsPinning } from './local.driver';

/** no-transform: compression on the way would break byte ranges and the ETag's promise of these exact bytes. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable, no-transform';
export const PINNED_FILE_POLICY = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

const PASSIVE_TYPE = /^(image\/(png|jpeg|gif|webp|avif)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|text\/plain|application\/(json|pdf|octet-stream))$/i;

export function localIpfsRouter(pinning: LocalIpfsPinning): Router {
  const router = Router();
  const refuse = (res: Response, status: 400 | 404, message: string) =>
    res
      .status(status)
      .set('Cache-Control', 'no-store')
      .json({ message, code: status === 400 ? 'bad_request' : 'not_found' });

  router.get('/ipfs/{*path}', async (req: Request, res: Response) => {
    const segments = ([] as string[]).concat((req.params as { path?: string | string[] }).path ?? []);
    const [text = '', ...rest] = segments;
    const pin = await pinning.find(text);
    if (pin === 'invalid') return refuse(res, 400, `Not a CID: "${text.slice(0, 100)}"`);
    if (!pin || rest.length > 0) return refuse(res, 404, 'No file is pinned here under this CID');
    res.setHeader('Content-Security-Policy', PINNED_FILE_POLICY);
    await sendFile(req, res, {
      size: pin.size,
      etag: `"${pin.cid}"`,
      contentType: PASSIVE_TYPE.test(pin.contentType) ? pin.contentType : 'application/octet-stream',
      cacheControl: IMMUTABLE_CACHE_CONTROL,
      open: async (range) => readPinned(pin, range),
    });
  });

  return router;
}
