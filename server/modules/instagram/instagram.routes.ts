import cookieParser from 'cookie-parser';
import { Router, type Request } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { requireAuth } from '../users';
import { CALLBACK_PATH, CONNECT_COOKIE, IMAGE_PATH, INSTAGRAM_MESSAGES, type InstagramService } from './instagram.service';

/** The consent's cookie lives as long as the consent may take, and is sent only to the callback. */
const COOKIE_MAX_AGE_MS = 15 * 60_000;

export function instagramRouter(config: AuthConfig, instagram: InstagramService): Router {
  const router = Router();
  const cookieOptions = { httpOnly: true, secure: config.cookieSecure, sameSite: 'lax' as const, path: CALLBACK_PATH };

  router.get('/instagram/connection', requireAuth(config), async (req: ApiRequest<'getInstagramConnection'>, res: ApiResponse<'getInstagramConnection'>) => {
    res.json(await instagram.connection(req.auth!));
  });

  router.post('/instagram/connection', requireAuth(config), async (req: ApiRequest<'connectInstagram'>, res: ApiResponse<'connectInstagram'>) => {
    const { authorizeUrl, nonce } = await instagram.connect(req.auth!, req.body.returnTo);
    // Lax, not strict: the callback is reached by a top-level navigation from Instagram's page.
    res.cookie(CONNECT_COOKIE, nonce, { ...cookieOptions, maxAge: COOKIE_MAX_AGE_MS });
    res.json({ authorizeUrl });
  });

  router.delete('/instagram/connection', requireAuth(config), async (req: ApiRequest<'disconnectInstagram'>, res: ApiResponse<'disconnectInstagram'>) => {
    await instagram.disconnect(req.auth!);
    res.json({ message: INSTAGRAM_MESSAGES.disconnected });
  });

  router.post('/instagram/posts', requireAuth(config), async (req: ApiRequest<'postToInstagram'>, res: ApiResponse<'postToInstagram'>) => {
    res.status(201).json(await instagram.post(req.auth!, req.body.contentId));
  });

  return router;
}

/** The text of a query value, or undefined (a repeated or nested one is not believed). */
const queryText = (value: unknown) => (typeof value === 'string' && value.length <= 2000 ? value : undefined);

/**
 * Instagram's side of the site, outside the API, both reached by Instagram rather than by the app:
 * - `/instagram/callback`, where the consent page sends the browser back (then on to the page the member left);
 * - the one-time picture links Instagram fetches while a post is made (`/instagram-images/{token}.jpg`). A link that
 *   ended, or a piece no longer public, answers 404.
 */
export function instagramPagesRouter(config: AuthConfig, instagram: InstagramService): Router {
  const router = Router();
  const cookieOptions = { httpOnly: true, secure: config.cookieSecure, sameSite: 'lax' as const, path: CALLBACK_PATH };

  router.get(CALLBACK_PATH, cookieParser(), async (req: Request, res) => {
    const nonce = queryText((req.cookies as Record<string, unknown> | undefined)?.[CONNECT_COOKIE]);
    const { code, state, error, error_description } = req.query;
    const location = await instagram.callback(
      { code: queryText(code), state: queryText(state), error: queryText(error), error_description: queryText(error_description) },
      nonce,
    );
    res.clearCookie(CONNECT_COOKIE, cookieOptions);
    res.set('Cache-Control', 'no-store').redirect(303, location);
  });

  router.get(`${IMAGE_PATH}/:file`, async (req: Request<{ file: string }>, res) => {
    const token = /^(.+)\.jpg$/.exec(req.params.file)?.[1];
    const image = token ? await instagram.imageOf(token) : null;
    if (!image) return void res.status(404).set('Cache-Control', 'no-store').json({ message: 'File not found', code: 'not_found' });
    res.set({ 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, max-age=900', 'Content-Length': String(image.length) }).end(image);
  });
  return router;
}
