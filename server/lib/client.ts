/**
 * Serves the built SPA: hashed assets cached for a year, index.html for every other page (history mode), with what
 * `pageFor` knows of the page: its link-preview tags in the head and its first paint (lib/firstPaint.ts) before the
 * app's root; or a 301 when it has moved.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import type { Visitor } from './firstPaint';

const SERVER_PATHS = /^\/(api|files|healthz|readyz)(\/|$)/;

/** What the HTML of one page carries beyond the app: `head` replaces the `<title>`, `firstPaint` goes before the root. */
export interface PageHtml {
  head?: string;
  firstPaint?: string;
}

/**
 * A page's own HTML (`search` is the address's query, '?…' or ''); or where the page has moved for good (a profile
 * or share link with a member's former username), answered 301; or null for the plain page.
 */
export type PageFor = (pathname: string, visitor: Visitor, search: string) => Promise<PageHtml | { movedTo: string } | null>;

const ROOT = '<div id="root"></div>';
const MODULE_PRELOADS = /<link rel="modulepreload"[^>]*>\s*/g;

export function clientRouter(clientDir: string, pageFor?: PageFor): Router {
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
    const query = req.originalUrl.indexOf('?');
    const search = query < 0 ? '' : req.originalUrl.slice(query);
    const page = pageFor && (await pageFor(req.path, { userAgent: req.get('user-agent') ?? '' }, search).catch(() => null));
    if (!page) return res.sendFile(indexHtml);
    // Permanent, yet checked again on each visit (no-cache above): a member may take a former name back.
    if ('movedTo' in page) return res.redirect(301, page.movedTo + search);
    let html = readTemplate();
    // Functions as replacements: the page's own text is inserted as it is (a '$&' in a title stays '$&').
    if (page.head) html = html.replace(/<title>[^<]*<\/title>/, () => page.head!);
    if (page.firstPaint) {
      // With its content in the HTML, the page paints as soon as its stylesheets arrive: the app's scripts, which the
      // template announces for the landing page, would share the phone's bandwidth with them until then. The app
      // loads them itself once its entry runs.
      html = html.replace(ROOT, () => page.firstPaint + ROOT).replace(MODULE_PRELOADS, '');
      // A phone gets the phone's frame: a cache in between must keep one copy per user agent.
      res.vary('User-Agent');
    }
    res.type('html').send(html);
  });
  return router;
}
