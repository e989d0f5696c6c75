/**
 * The SPA page's <meta name="description">, for search engines and link previews that read index.html without
 * running it: the site's built-in description (generated/page-meta.ts), the same the app applies once it runs, so
 * the text lives in one place. Vite escapes the attribute.
 */
import type { Plugin } from 'vite';
import { PAGE_META_DEFAULTS } from '../../generated/page-meta';

const description = PAGE_META_DEFAULTS.meta.meta.find((item) => item.property === 'description')?.content;

export function siteDescription(): Plugin {
  if (!description) throw new Error('generated/page-meta.ts has no description for the "meta" page');
  return {
    name: 'knack:site-description',
    transformIndexHtml(html, ctx) {
      // Only the SPA's page: the embeddable player is not indexed.
      if (!ctx.path.endsWith('/index.html')) return html;
      return [{ tag: 'meta', attrs: { name: 'description', content: description }, injectTo: 'head' }];
    },
  };
}
