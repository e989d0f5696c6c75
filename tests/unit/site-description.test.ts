/**
 * The description a search engine or a link preview reads from index.html before any script runs is the site's
 * built-in one (generated/page-meta.ts, from openapi.yaml): the same the app applies and the server seeds the CMS with.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HtmlTagDescriptor, IndexHtmlTransformContext, Plugin } from 'vite';
import { siteDescription } from '../../client/build/siteDescription';

const INDEX_HTML = path.resolve(__dirname, '../../client/index.html');
const SITE_DESCRIPTION =
  'Knack pays creators of music, art and photos for every play and view. Upload your work, list it, and earn knack from $0.05 each time someone plays or views it.';

type Transform = (html: string, ctx: Pick<IndexHtmlTransformContext, 'path' | 'filename'>) => string | HtmlTagDescriptor[];
const transformOf = (plugin: Plugin): Transform => {
  const hook = plugin.transformIndexHtml as unknown as Transform | { handler: Transform };
  return typeof hook === 'function' ? hook : hook.handler;
};

describe('the description of index.html', () => {
  const transform = transformOf(siteDescription());

  it('when the SPA page is built or served, then its head gets the built-in site description', () => {
    expect(transform('<html><head></head></html>', { path: '/index.html', filename: INDEX_HTML })).toEqual([
      { tag: 'meta', attrs: { name: 'description', content: SITE_DESCRIPTION }, injectTo: 'head' },
    ]);
  });

  it('when the embeddable player page is built, then it gets no description (it is not indexed)', () => {
    const html = '<html><head><meta name="robots" content="noindex" /></head></html>';
    expect(transform(html, { path: '/music-player.html', filename: 'music-player.html' })).toBe(html);
  });

  it('when index.html is read, then it writes no description of its own (the build adds the one)', () => {
    expect(readFileSync(INDEX_HTML, 'utf8')).not.toMatch(/name="description"/);
  });
});
