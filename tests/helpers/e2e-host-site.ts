/**
 * Another site for the embed tests: a tiny node:http server of HTML pages by path on loopback (reached at 127.0.0.1 on
 * its own port, or under another name through Chromium's host mapping), a blog post that holds a player, and the
 * player's frame on a page once it has drawn.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';

export interface HostSite {
  port: number;
  /** Puts the HTML `html` at `path`. */
  serve(path: string, html: string): void;
  close(): Promise<void>;
}

export async function startHostSite(): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    const html = pages.get(req.url ?? '/');
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    serve: (path, html) => void pages.set(path, html),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A post of a fan's blog with `player` (the embed snippet) in it. */
export function blogPost(player: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sea songs — my blog</title><style>body{font:16px/1.5 Georgia,serif;margin:24px;color:#222;background:#fbf8f2}iframe{max-width:100%;border-radius:10px;box-shadow:0 6px 24px #0002}</style></head>
<body><h1>Songs of the sea</h1><p>Ana Lima’s new piece, right here:</p>${player}<p>What do you think?</p></body></html>`;
}

/** The embed frame of a host page, once its player has drawn (the player, or its note that the piece is not available). */
export async function playerFrame(page: Page): Promise<Frame> {
  const element = await page.waitForSelector('iframe');
  const frame = (await element.contentFrame())!;
  await frame.waitForSelector('.kp-stage, .kp-note');
  return frame;
}
