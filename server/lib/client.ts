/** Serves the built SPA: hashed assets cached for a year, index.html for every other page (history mode). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';

const SERVER_PATHS = /^\/(api|files|healthz|readyz)(\/|$)/;

export function clientRouter(clientDir: string): Router {
  const router = Router();
  const indexHtml = path.join(clientDir, 'index.html');
  router.use(
    '/assets',
    express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: false }),
  );
  router.use(express.static(clientDir, { index: false, maxAge: '1h' }));
  router.get('/{*page}', (req, res, next) => {
    if (SERVER_PATHS.test(req.path)) return next();
    if (!existsSync(indexHtml)) {
      res.status(503).type('text').send('The web client is not built yet: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexHtml);
  });
  return router;
}
