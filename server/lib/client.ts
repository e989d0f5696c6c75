/**
 * Serves the built SPA: hashed assets cached for a year, index.html for every other page (history mode),
 * with a page's link-preview tags in its head when `headFor` knows the page, or a 301 when it has moved.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';

const SERVER_PATHS = /^\/(api|files|healthz|readyz)(\/|$)/;

/**
 * Extra `<head>` HTML for a page (its title and preview tags); or where the page has moved for good (a profile or
 * share link with a member's former username), answered 301; or null for the plain page.
 */
export type HeadFor = (pathname: string) => Promise<string | { movedTo: string } | null>;

export function clientRouter(clientDir: string, headFor?: HeadFor): Router {
  const router = Router();
  const indexHtml = path.join(clientDir, 'index.html');
  let template: { mtimeMs: number; html: string } | undefined;
  const readTemplate = () => {
    const { mtimeMs } = statSync(indexHtml);
    if (template?.mtimeMs !== mtimeMs) template = { mtimeMs, html: readFileSync(indexHtml, 'utf8') };
    return template.html;
  };
  router.use('/assets', express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: false }));
  router.use(express.static(clientDir, { index: false, maxAge: '1h' }));
  router.get('/{*page}', async (req, res, next) => {
    if (SERVER_PATHS.test(req.path)) return next();
    if (!existsSync(indexHtml)) {
      res.status(503).type('text').send('The web client is not built yet: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    const head = headFor && (await headFor(req.path).catch(() => null));
    if (!head) return res.sendFile(indexHtml);
    // Permanent, yet checked again on each visit (no-cache above): a member may take a former name back.
    if (typeof head !== 'string') {
      const query = req.originalUrl.indexOf('?');
      return res.redirect(301, head.movedTo + (query < 0 ? '' : req.originalUrl.slice(query)));
    }
    res.type('html').send(readTemplate().replace(/<title>[^<]*<\/title>/, head));
  });
  return router;
}
