/**
 * antd's icons style themselves at run time: the first effect of every icon searches the document's <style>
 * elements and inserts `.anticon`'s rules if they are missing. On the first page that is a search per icon, and the
 * inserted sheet makes the browser work out the whole page's styles again. The app sets `zeroRuntime` on the icons
 * (app/App.tsx) and loads their rules with its own stylesheet instead, from this virtual module, whose text is the
 * icon library's own (`iconStyles`), so an upgrade of the library brings its rules with it.
 */
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const ANTD_ICON_STYLES_MODULE = 'virtual:antd-icon-styles.css';
const RESOLVED = `\0${ANTD_ICON_STYLES_MODULE}`;

/** The icon library's stylesheet, as its icons would insert it. */
function antdIconStylesheet(): string {
  const require = createRequire(import.meta.url);
  return (require('@ant-design/icons/lib/renderUtils') as { iconStyles: string }).iconStyles;
}

export function antdIconStyles(): Plugin {
  return {
    name: 'knack-antd-icon-styles',
    resolveId: (source) => (source === ANTD_ICON_STYLES_MODULE ? RESOLVED : null),
    load: (id) => (id === RESOLVED ? antdIconStylesheet() : null),
  };
}
