/**
 * Vite build of the Knack SPA. Root is client/, output goes to dist/client at the repository root
 * (the server serves it with a history-mode fallback). In development /api, /files and /healthz are
 * proxied to the Node server on port 3000.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const clientRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.KNACK_API_URL ?? 'http://localhost:3000';

/**
 * Vendor code in a few long-cached chunks; route pages stay in their own lazy chunks. The antd group is
 * entries-aware: an antd component used only by a lazy route lands in a vendor chunk loaded by that
 * route, not in the initial download.
 */
const vendorGroups: { name: string; test: RegExp; priority: number; entriesAware?: boolean }[] = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/, priority: 40 },
  {
    name: 'vendor-state',
    test: /node_modules[\\/](redux|@reduxjs|react-redux|redux-saga|@redux-saga|immer|reselect|use-sync-external-store)[\\/]/,
    priority: 30,
  },
  { name: 'vendor-http', test: /node_modules[\\/](axios|form-data|proxy-from-env)[\\/]/, priority: 30 },
  {
    name: 'vendor-antd',
    test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@babel[\\/]runtime|classnames|clsx|dayjs|@emotion|stylis|throttle-debounce|compute-scroll-into-view|scroll-into-view-if-needed|resize-observer-polyfill|json2mq|toggle-selection|copy-to-clipboard|string-convert|is-mobile)[\\/]/,
    priority: 20,
    entriesAware: true,
  },
];

/**
 * The landing route (home, `/`) is the page most visits start on: its lazy chunk and the chunks it
 * imports are announced with <link rel="modulepreload"> in index.html so they download in parallel
 * with the entry instead of after it; its stylesheets are linked as well.
 */
function preloadLandingRoute(landingModule: string): Plugin {
  return {
    name: 'knack:preload-landing-route',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        // Only the SPA's page: the embeddable player (music-player.html) must not download the home route.
        if (!bundle || !ctx.path.endsWith('/index.html')) return html;
        const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
        const landing = chunks.find((chunk) => chunk.facadeModuleId?.replace(/\\/g, '/').endsWith(landingModule));
        if (!landing) throw new Error(`preloadLandingRoute: no chunk for ${landingModule}`);
        const files = new Set<string>();
        const styles = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          const chunk = chunks.find((c) => c.fileName === fileName);
          chunk?.viteMetadata?.importedCss.forEach((css) => styles.add(css));
          chunk?.imports.forEach(visit);
        };
        visit(landing.fileName);
        const already = new Set([...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]));
        return [
          ...[...files]
            .filter((file) => !already.has(file))
            .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const })),
          // The landing page's styles too, so it paints styled; Vite skips a stylesheet already linked.
          ...[...styles]
            .filter((file) => !already.has(file))
            .map((file) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const })),
        ];
      },
    },
  };
}

export default defineConfig({
  root: clientRoot,
  publicDir: 'public',
  base: '/',
  plugins: [react(), preloadLandingRoute('/src/features/home/pages/HomePage.tsx')],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/files': { target: apiTarget, changeOrigin: true },
      '/healthz': { target: apiTarget, changeOrigin: true },
    },
  },
  preview: { port: 4173 },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // The SPA, and the embeddable player: a page of its own with no React or antd (src/embed).
      input: { main: fileURLToPath(new URL('index.html', import.meta.url)), 'music-player': fileURLToPath(new URL('music-player.html', import.meta.url)) },
      output: {
        codeSplitting: {
          groups: vendorGroups,
        },
      },
    },
  },
});
