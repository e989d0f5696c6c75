/**
 * The published contract: raw at /api/openapi.yaml, rendered with Swagger UI at /api/docs, and the page for
 * integrators, "Integrating with Knack", at /api/docs/integrating (docs/integrating.md, with this deployment's address).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import MarkdownIt from 'markdown-it';
import { escapeHtml } from '../lib/html';
import { OPENAPI_PATH, PROJECT_ROOT } from '../lib/paths';

const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const INTEGRATING_PATH = path.join(PROJECT_ROOT, 'docs', 'integrating.md');

/** The address the contract and the integrators' page give for production; a deployment puts its own in their place. */
export const PRODUCTION_ORIGIN = 'https://knack.example';
const PRODUCTION_SERVER_LINE = `  - url: ${PRODUCTION_ORIGIN}/api/v2\n`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Knack API</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <p style="font-family: sans-serif; margin: 16px 20px 0"><a href="/api/docs/integrating">Integrating with Knack</a>: API keys, a worked example, paging, rate limits.</p>
  <div id="swagger-ui"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>`;

// A file, not an inline script, so the page works under the strict Content-Security-Policy.
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.yaml', dom_id: '#swagger-ui', deepLinking: true });`;

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;color:#1f1f1f;max-width:52rem;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.9rem}h2{margin-top:2.2rem;font-size:1.35rem}a{color:#0b57d0}
code{font:0.9em ui-monospace,monospace;background:#f2f2f2;padding:0.1em 0.3em;border-radius:3px}
pre{background:#f2f2f2;padding:0.8rem 1rem;overflow-x:auto;border-radius:6px}pre code{padding:0;background:none}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:0.35rem 0.6rem;text-align:left;vertical-align:top}`;

/**
 * The contract as this deployment serves it: the same text, with production's address in the first server replaced
 * by this deployment's (`publicUrl`), so that a client generated from it calls this server.
 */
export function servedContract(text: string, publicUrl: string): string {
  if (!text.includes(PRODUCTION_SERVER_LINE)) throw new Error(`openapi.yaml: its first server must be ${PRODUCTION_ORIGIN}/api/v2`);
  return text.replace(PRODUCTION_SERVER_LINE, `  - url: ${publicUrl}/api/v2\n`);
}

/** A heading's anchor as GitHub makes it (lower case, punctuation dropped, spaces as hyphens), so the page's contents link the same here and there. */
const anchorOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function integratingPage(publicUrl: string): string {
  const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
  markdown.core.ruler.push('heading_anchors', (state) => {
    state.tokens.forEach((token, i) => {
      if (token.type === 'heading_open') token.attrSet('id', anchorOf(state.tokens[i + 1]?.content ?? ''));
    });
  });
  const body = markdown.render(readFileSync(INTEGRATING_PATH, 'utf8').replaceAll(PRODUCTION_ORIGIN, publicUrl));
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Integrating with Knack</title>
  <style>${STYLE}</style>
</head>
<body>
<p><a href="/api/docs">All calls (/api/docs)</a> · <a href="/api/openapi.yaml">openapi.yaml</a> · ${escapeHtml(publicUrl)}</p>
<main>
${body}</main>
</body>
</html>`;
}

export function docsRouter(publicUrl: string): Router {
  const router = Router();
  const spec = servedContract(readFileSync(OPENAPI_PATH, 'utf8'), publicUrl);
  const integrating = integratingPage(publicUrl);
  router.get('/api/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(spec);
  });
  router.get('/api/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/api/docs/integrating', (_req, res) => {
    res.type('html').send(integrating);
  });
  router.get('/api/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/api/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}
