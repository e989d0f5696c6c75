/** The published contract: raw at /api/openapi.yaml, rendered with Swagger UI at /api/docs. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import { OPENAPI_PATH } from '../lib/paths';

const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Knack API</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>`;

// A file, not an inline script, so the page works under the strict Content-Security-Policy.
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.yaml', dom_id: '#swagger-ui', deepLinking: true });`;

export function docsRouter(): Router {
  const router = Router();
  const spec = readFileSync(OPENAPI_PATH, 'utf8');
  router.get('/api/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(spec);
  });
  router.get('/api/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/api/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/api/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}
