/**
 * Vite build of the Knack SPA. Root is client/, output goes to dist/client at the repository root
 * (the server serves it with a history-mode fallback). In development /api, /files and /healthz are
 * proxied to the Node server on port 3000.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import {
  gzippedSize,
  landingModules,
  landingScripts,
  modulesLoadingAntd,
  packagesLoadedBy,
  reachesAntd,
  staticModules,
  withStaticImports,
  type ModuleFacts,
} from './build/landing';
import { antdIconStyles } from './build/antdIconStyles';
import { vendorFixes } from './build/vendorFixes';
import { siteDescription } from './build/siteDescription';

const clientRoot = fileURLToPath(new URL('.', import.meta.url));
/** The landing route's page module: most visits start there. */
const LANDING_MODULE = '/src/features/home/pages/HomePage.tsx';
/**
 * The pages a visitor arrives on (from a search, a shared link, a post) and the piece's detail a shared link opens: they
 * draw with our own elements, so that a phone runs none of antd's code before they show (routes.tsx, `antd: false`).
 */
const ANTD_FREE_MODULES = [
  LANDING_MODULE,
  '/src/features/explore/pages/ExplorePage.tsx',
  '/src/features/explore/pages/ViewAllPage.tsx',
  '/src/features/explore/pages/SearchPage.tsx',
  '/src/features/profile/pages/ProfilePage.tsx',
  '/src/features/content-detail/components/ContentDetailModal.tsx',
  '/src/features/comments/components/CommentsPanel.tsx',
  '/src/features/bids/components/BidPanel.tsx',
  '/src/features/cms/pages/BecomePage.tsx',
  '/src/features/cms/pages/EarningPage.tsx',
  '/src/features/cms/pages/UserGuidePage.tsx',
  '/src/features/cms/pages/BlogPage.tsx',
] as const;
const apiTarget = process.env.KNACK_API_URL ?? 'http://localhost:3000';

/**
 * Vendor code in a few long-cached chunks; route pages stay in their own lazy chunks.
 * - React with the router, the store, and axios: one file each, loaded by every page.
 * - antd's core (theme, style runtime, provider, popups): one file, loaded by the first page or modal that uses
 *   antd (the landing page uses none: components/antd/withAntd.tsx).
 * - antd's components, the icons and our shared code: grouped by the set of pages that use them (entries-aware),
 *   so a page loads only what it uses, and groups under the merge threshold (bytes) join their closest neighbour,
 *   so a page loads a few files rather than dozens of tiny ones.
 */
type GroupName = string | ((moduleId: string, ctx: { getModuleInfo: (id: string) => ModuleFacts | null }) => string | null);

/**
 * A group's name for a module: `name` when the landing page runs it (landingModules), `name-lazy` otherwise, and none
 * (the module stays with the chunks that import it) when it runs antd. Two names are two groups whose small chunks
 * never merge into each other, so the landing page's chunks hold only its own code: before, a lazy panel's icons or a
 * modal's helpers would join a chunk it loads, by the grouping's merge rule. And a module that runs antd, merged with
 * others, would bring antd to every page that loads them (the pages drawn without it: ANTD_FREE_MODULES).
 */
function splitAtLanding(name: string): GroupName {
  let landing: Set<string> | undefined;
  const antd = new Map<string, boolean>();
  return (moduleId, ctx) => {
    const moduleInfo = (id: string) => ctx.getModuleInfo(id);
    landing ??= landingModules(moduleInfo, `${clientRoot}src/main.tsx`, `${clientRoot}${LANDING_MODULE.slice(1)}`);
    if (landing.has(moduleId)) return name;
    return reachesAntd(moduleInfo, moduleId, antd) ? null : `${name}-lazy`;
  };
}

/** The embeddable player's entry (music-player.html), a page of its own. */
const EMBED_ENTRY = 'music-player';
const EMBED_MODULE = 'src/embed/main.ts';

/**
 * The group of the shared modules the embeddable player runs (the media URLs, the waveform, the stored account): one
 * chunk of their own, which imports nothing. In the app's group the bundler put them in a chunk of the app's boot,
 * which brought React, the store and axios to the player's page (27 KB gzip for a player of 3).
 */
function embedShared(name: string): GroupName {
  let embed: Set<string> | undefined;
  return (moduleId, ctx) => {
    embed ??= staticModules((id) => ctx.getModuleInfo(id), `${clientRoot}${EMBED_MODULE}`);
    return embed.has(moduleId) ? name : null;
  };
}

const vendorGroups: { name: GroupName; debugName?: string; test: RegExp; priority: number; entriesAware?: boolean; entriesAwareMergeThreshold?: number }[] = [
  // Vite's helper that loads a lazy chunk's files in parallel: the entry uses it, so it must not share a file with
  // lazy code (it was put with a phone drawer's modules, which pulled antd into the landing page).
  { name: 'preload-helper', test: /vite[\\/]preload-helper/, priority: 50 },
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/, priority: 40 },
  {
    name: 'vendor-state',
    test: /node_modules[\\/](redux|@reduxjs|react-redux|redux-saga|@redux-saga|immer|reselect|use-sync-external-store)[\\/]/,
    priority: 30,
  },
  // With our stand-in for axios's fetch adapter (build/vendorFixes.ts), which belongs with axios.
  { name: 'vendor-http', test: /node_modules[\\/](axios|form-data|proxy-from-env)[\\/]|vendor-fixes[\\/]axiosFetchAdapter/, priority: 30 },
  {
    name: splitAtLanding('vendor-icons'),
    debugName: 'vendor-icons',
    test: /node_modules[\\/]@ant-design[\\/](icons|icons-svg)[\\/]/,
    priority: 25,
    entriesAware: true,
    entriesAwareMergeThreshold: 10_000,
  },
  {
    name: 'vendor-antd-core',
    test: /node_modules[\\/](@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color)|antd[\\/]es[\\/](config-provider|theme|_util|style|locale|version)|@rc-component[\\/](util|motion|trigger|portal|resize-observer)|stylis|@emotion|@babel[\\/]runtime|clsx|classnames)[\\/]/,
    priority: 22,
  },
  {
    name: 'vendor-antd',
    test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@babel[\\/]runtime|classnames|clsx|dayjs|@emotion|stylis|throttle-debounce|compute-scroll-into-view|scroll-into-view-if-needed|resize-observer-polyfill|json2mq|toggle-selection|copy-to-clipboard|string-convert|is-mobile)[\\/]/,
    priority: 20,
    entriesAware: true,
    entriesAwareMergeThreshold: 20_000,
  },
  {
    // The form rules generated from the contract, in a chunk of their own that imports nothing: in the app group they
    // were put in one of its chunks that imports, and is imported by, the auth feature's chunk, and a page whose chunks
    // loaded in that order read them before they were defined ('Cannot destructure property usernameMin').
    name: 'app-rules',
    test: /[\\/]generated[\\/]validation\.ts$/,
    priority: 6,
  },
  {
    // The built-in page metadata, loaded only when the CMS fails (features/cms/useAppliedPageMeta.ts): a chunk of its
    // own, as the landing page's chunks would otherwise carry it.
    name: 'page-meta-defaults',
    test: /client[\\/]src[\\/]features[\\/]cms[\\/]pageMeta\.defaults\.ts$|generated[\\/]page-meta\.ts$/,
    priority: 6,
  },
  {
    // The hook that opens the wallet modal (the modal itself is lazy, with antd): the buy/sell panel uses it, and it is
    // drawn without antd, but the bundler put the hook in one chunk with the wallet list and settings, which use antd.
    name: 'wallet-modal',
    test: /client[\\/]src[\\/]features[\\/]stellar[\\/]components[\\/]useWalletModal\.tsx$/,
    priority: 6,
  },
  {
    name: embedShared('embed-shared'),
    debugName: 'embed-shared',
    // The player's own modules (src/embed) stay in its entry chunk.
    test: /client[\\/]src[\\/](api|lib|components)[\\/]/,
    priority: 7,
  },
  {
    name: splitAtLanding('app'),
    debugName: 'app',
    test: /client[\\/]src[\\/](api|lib|app|components|layouts)[\\/]|client[\\/]src[\\/]features[\\/][\w-]+[\\/][\w.-]+\.ts$/,
    priority: 5,
    entriesAware: true,
    entriesAwareMergeThreshold: 10_000,
  },
];

/**
 * The landing route (home, `/`) is the page most visits start on. Everything it runs first (the entry's boot
 * chunks, and the landing route's lazy chunk with what it imports) is announced with <link rel="modulepreload">
 * in index.html, so it all downloads in parallel with the entry instead of step after step; its stylesheets are
 * linked as well. (A page the server draws a first paint of is sent without these announcements: server/lib/client.ts.)
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
        const landing = landingScripts(chunks, 'main', landingModule);
        const files = new Set(landing.map((chunk) => chunk.fileName));
        const styles = new Set(landing.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]));
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

/** At most this many KB of gzipped JavaScript before the landing page shows (LANDING_JS_BUDGET_KB overrides it). */
const LANDING_JS_BUDGET_KB = Number(process.env.LANDING_JS_BUDGET_KB ?? 200);

/**
 * Fails the build when the landing page's JavaScript (the entry and the landing route, each with what it imports
 * statically) is over its gzipped budget: most visits start there, on a phone.
 */
function landingBudget(landingModule: string, budgetKb: number): Plugin {
  return {
    name: 'knack:landing-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const scripts = landingScripts(chunks, 'main', landingModule);
      const kb = scripts.reduce((sum, chunk) => sum + gzippedSize(chunk.code), 0) / 1024;
      const summary = `landing page JavaScript: ${kb.toFixed(1)} KB gzip in ${scripts.length} files (budget ${budgetKb} KB)`;
      if (kb > budgetKb) this.error(`${summary}: over budget`);
      this.info(summary);
      const withAntd = modulesLoadingAntd(chunks, ANTD_FREE_MODULES);
      if (withAntd.length) this.error(`these should load no antd, and do: ${withAntd.join(', ')}`);
      // The embeddable player draws with the DOM alone: a package on its page is one that came with a shared chunk.
      const player = chunks.find((chunk) => chunk.isEntry && chunk.name === EMBED_ENTRY);
      const playerKb = player ? withStaticImports(chunks, player).reduce((sum, chunk) => sum + gzippedSize(chunk.code), 0) / 1024 : 0;
      this.info(`embeddable player JavaScript: ${playerKb.toFixed(1)} KB gzip`);
      const packages = packagesLoadedBy(chunks, EMBED_ENTRY);
      if (packages.length) this.error(`the embeddable player should load no package, and loads: ${packages.join(', ')}`);
    },
  };
}

export default defineConfig({
  root: clientRoot,
  publicDir: 'public',
  base: '/',
  plugins: [
    vendorFixes(clientRoot),
    antdIconStyles(),
    react(),
    siteDescription(),
    preloadLandingRoute(LANDING_MODULE),
    landingBudget(LANDING_MODULE, LANDING_JS_BUDGET_KB),
  ],
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
      input: { main: fileURLToPath(new URL('index.html', import.meta.url)), [EMBED_ENTRY]: fileURLToPath(new URL('music-player.html', import.meta.url)) },
      output: {
        codeSplitting: {
          groups: vendorGroups,
        },
      },
    },
  },
});
