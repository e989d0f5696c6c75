/**
 * The landing page's JavaScript, as the build counts it for its budget and preloads it: the entry with the chunks
 * of its boot steps, and the landing route, each with every chunk it imports statically, and nothing that is only
 * loaded later (lazy pages, modals). Before chunking, the same set of modules, which the chunk groups keep apart from
 * the rest; and which modules bring antd with them, which the pages drawn without antd must not.
 */
import { gzipSync } from 'node:zlib';
import {
  gzippedSize,
  landingModules,
  landingRouteChunks,
  landingScripts,
  modulesLoadingAntd,
  reachesAntd,
  type BuiltChunk,
  type ModuleFacts,
} from '../../client/build/landing';

const chunk = (fileName: string, imports: string[] = [], extra: Partial<BuiltChunk> = {}): BuiltChunk => ({
  fileName,
  name: fileName.replace(/\.js$/, ''),
  isEntry: false,
  facadeModuleId: null,
  imports,
  dynamicImports: [],
  code: `/* ${fileName} */`,
  ...extra,
});

const CHUNKS: BuiltChunk[] = [
  chunk('main.js', ['styles.js'], {
    isEntry: true,
    facadeModuleId: '/repo/client/index.html',
    dynamicImports: ['vendor-react.js', 'store.js', 'app-shell.js'],
  }),
  chunk('styles.js'),
  chunk('store.js', ['app-shared.js', 'vendor-state.js']),
  chunk('vendor-state.js'),
  chunk('app-shell.js', ['app-shared.js'], { dynamicImports: ['HomePage.js', 'ExplorePage.js', 'UploadModal.js'] }),
  chunk('UploadModal.js', ['vendor-antd.js']),
  chunk('music-player.js', ['app-shared.js', 'player-only.js'], { isEntry: true }),
  chunk('vendor-react.js'),
  chunk('app-shared.js', ['vendor-react.js']),
  chunk('HomePage.js', ['home-cards.js'], { facadeModuleId: '/repo/client/src/features/home/pages/HomePage.tsx' }),
  chunk('home-cards.js', ['app-shared.js', 'icons.js']),
  chunk('icons.js'),
  chunk('ExplorePage.js', ['vendor-antd.js'], { facadeModuleId: '/repo/client/src/features/explore/pages/ExplorePage.tsx' }),
  chunk('vendor-antd.js'),
  chunk('player-only.js'),
];
const HOME = '/src/features/home/pages/HomePage.tsx';
const names = (chunks: BuiltChunk[]) => chunks.map((c) => c.fileName).sort();

describe('the landing page scripts', () => {
  it('are the entry with its boot steps and the landing route, with their static imports, each once, and no lazy page, modal or other entry', () => {
    expect(names(landingScripts(CHUNKS, 'main', HOME))).toEqual([
      'HomePage.js',
      'app-shared.js',
      'app-shell.js',
      'home-cards.js',
      'icons.js',
      'main.js',
      'store.js',
      'styles.js',
      'vendor-react.js',
      'vendor-state.js',
    ]);
  });

  it('come each after the chunks it imports, so that their stylesheets cascade as Vite links them', () => {
    const order = landingScripts(CHUNKS, 'main', HOME).map((c) => c.fileName);
    for (const chunk of CHUNKS.filter((c) => order.includes(c.fileName))) {
      for (const imported of chunk.imports) expect(order.indexOf(imported)).toBeLessThan(order.indexOf(chunk.fileName));
    }
    expect(order.indexOf('vendor-react.js')).toBeLessThan(order.indexOf('app-shared.js'));
    expect(order.indexOf('app-shared.js')).toBeLessThan(order.indexOf('store.js'));
  });

  it('preloaded for the landing route are its chunk and what it imports', () => {
    expect(names(landingRouteChunks(CHUNKS, HOME))).toEqual(['HomePage.js', 'app-shared.js', 'home-cards.js', 'icons.js', 'vendor-react.js']);
  });

  it('refuse a landing module that no chunk holds, or an entry that does not exist', () => {
    expect(() => landingScripts(CHUNKS, 'main', '/src/features/nope/Page.tsx')).toThrow('No chunk for /src/features/nope/Page.tsx');
    expect(() => landingScripts(CHUNKS, 'admin', HOME)).toThrow('No entry chunk named admin');
  });

  it('are weighed gzipped, as the server sends them', () => {
    const code = 'export const a = 1;\n'.repeat(500);
    expect(gzippedSize(code)).toBe(gzipSync(code, { level: 6 }).length);
    expect(gzippedSize(code)).toBeLessThan(code.length / 10);
  });
});

/** A module graph: each module's static and dynamic imports. */
const GRAPH: Record<string, ModuleFacts> = {
  '/src/main.tsx': { importedIds: ['/src/styles.css'], dynamicallyImportedIds: ['/src/app/boot.ts'] },
  '/src/styles.css': { importedIds: [], dynamicallyImportedIds: [] },
  '/src/app/boot.ts': { importedIds: ['/src/layout.tsx'], dynamicallyImportedIds: ['/src/HomePage.tsx', '/src/WalletPage.tsx'] },
  '/src/layout.tsx': { importedIds: ['/node_modules/@ant-design/icons/es/Menu.js'], dynamicallyImportedIds: ['/src/Drawer.tsx'] },
  '/src/HomePage.tsx': { importedIds: ['/src/cards.tsx'], dynamicallyImportedIds: [] },
  '/src/cards.tsx': { importedIds: ['/src/HomePage.tsx'], dynamicallyImportedIds: [] },
  '/src/WalletPage.tsx': { importedIds: ['/src/cards.tsx', '/src/form.tsx'], dynamicallyImportedIds: [] },
  '/src/form.tsx': { importedIds: ['/node_modules/antd/es/form/index.js'], dynamicallyImportedIds: [] },
  '/src/Drawer.tsx': { importedIds: ['/node_modules/@ant-design/cssinjs/es/index.js'], dynamicallyImportedIds: [] },
  '/node_modules/@ant-design/icons/es/Menu.js': { importedIds: [], dynamicallyImportedIds: [] },
  '/node_modules/antd/es/form/index.js': { importedIds: [], dynamicallyImportedIds: [] },
  '/node_modules/@ant-design/cssinjs/es/index.js': { importedIds: [], dynamicallyImportedIds: [] },
};
const info = (id: string) => GRAPH[id] ?? null;

describe('the landing page modules, before chunking', () => {
  it("are the entry's static imports, its boot steps with theirs, and the landing route with its own; not the lazy pages or panels the boot steps load later", () => {
    expect([...landingModules(info, '/src/main.tsx', '/src/HomePage.tsx')].sort()).toEqual([
      '/node_modules/@ant-design/icons/es/Menu.js',
      '/src/HomePage.tsx',
      '/src/app/boot.ts',
      '/src/cards.tsx',
      '/src/layout.tsx',
      '/src/main.tsx',
      '/src/styles.css',
    ]);
  });
});

describe('the modules that bring antd', () => {
  it("are those that import antd's components or style runtime, however deep, and not its icons alone; an import cycle ends", () => {
    const known = new Map<string, boolean>();
    const bring = Object.keys(GRAPH).filter((id) => reachesAntd(info, id, known));
    expect(bring.sort()).toEqual([
      '/node_modules/@ant-design/cssinjs/es/index.js',
      '/node_modules/antd/es/form/index.js',
      '/src/Drawer.tsx',
      '/src/WalletPage.tsx',
      '/src/form.tsx',
    ]);
    // A lazy import (the layout's drawer) does not make its importer bring antd.
    expect(reachesAntd(info, '/src/layout.tsx')).toBe(false);
  });

  it('are found in the chunks a page loads: a page whose chunk imports one that holds antd is named', () => {
    const built = [
      chunk('HomePage.js', ['shared.js'], { facadeModuleId: '/repo/client/src/HomePage.tsx', moduleIds: ['/repo/client/src/HomePage.tsx'] }),
      chunk('WalletPage.js', ['shared.js', 'vendor-antd.js'], {
        facadeModuleId: '/repo/client/src/WalletPage.tsx',
        moduleIds: ['/repo/client/src/WalletPage.tsx'],
      }),
      chunk('shared.js', [], { moduleIds: ['/repo/client/src/cards.tsx', '/repo/node_modules/@ant-design/icons/es/Menu.js'] }),
      chunk('vendor-antd.js', [], { moduleIds: ['/repo/node_modules/antd/es/form/index.js'] }),
    ];
    expect(modulesLoadingAntd(built, ['/src/HomePage.tsx', '/src/WalletPage.tsx'])).toEqual(['/src/WalletPage.tsx']);
  });
});
