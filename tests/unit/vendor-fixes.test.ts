/**
 * The client build's stand-ins for vendor modules (client/build/vendorFixes.ts): each replaces one import of one
 * package file, and nothing else; each is for the version package.json pins exactly; and each fails the build,
 * saying what no longer matches, rather than stop applying silently when the package changes.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { VENDOR_FIXES, vendorFixes, type VendorFix } from '../../client/build/vendorFixes';
import { getFetch } from '../../client/src/lib/vendor-fixes/axiosFetchAdapter';

const REPO = path.resolve(__dirname, '../..');
const CLIENT_ROOT = path.join(REPO, 'client');
const NODE_MODULES = path.join(REPO, 'node_modules');
const PORTAL = 'src/lib/vendor-fixes/useEscKeyDown.ts';
const AXIOS_STAND_IN = 'src/lib/vendor-fixes/axiosFetchAdapter.ts';

/** The plugin's hooks, called as Vite calls them. */
interface Hooks {
  configResolved(config: { command: 'build' | 'serve' }): void;
  buildStart(): void;
  resolveId(source: string, importer?: string): string | null;
  buildEnd(error?: Error): void;
}
const pluginAt = (root: string): Hooks => vendorFixes(root) as Plugin as unknown as Hooks;

const fixOf = (packageName: string) => VENDOR_FIXES.find((fix) => fix.packageName === packageName)!;
/** The installed file of a package the fix replaces an import of, as the build reaches it. */
const installedImporter = (fix: VendorFix) => path.join(NODE_MODULES, fix.packageName, fix.importer);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('the vendor fixes of the client build', () => {
  const plugin = pluginAt(CLIENT_ROOT);
  const resolve = (source: string, importer?: string) => plugin.resolveId(source, importer);
  const axiosAdapters = installedImporter(fixOf('axios'));
  const portal = installedImporter(fixOf('@rc-component/portal'));

  it("put our stand-in in place of axios's fetch adapter, for axios's adapter list only", () => {
    expect(resolve('./fetch.js', axiosAdapters)).toBe(path.join(CLIENT_ROOT, AXIOS_STAND_IN));
    expect(resolve('./fetch.js', '/repo/node_modules/other/lib/adapters/adapters.js')).toBeNull();
    expect(resolve('./xhr.js', axiosAdapters)).toBeNull();
    expect(resolve('./fetch.js')).toBeNull();
  });

  it('have the stand-in tell axios that the fetch adapter is not available, so that it keeps to XMLHttpRequest', () => {
    expect(getFetch()).toBe(false);
  });

  it("put our Escape stack in place of antd's portal hook", () => {
    expect(resolve('./useEscKeyDown', portal)).toBe(path.join(CLIENT_ROOT, PORTAL));
  });

  it("apply to the dev server's pre-bundled packages too, which Vite bundles without the app's plugins", () => {
    const config = (vendorFixes(CLIENT_ROOT) as Plugin & { config(): { optimizeDeps: { rolldownOptions: { plugins: Hooks[] } } } }).config();
    const [dependencies] = config.optimizeDeps.rolldownOptions.plugins;
    expect(dependencies!.resolveId('./useEscKeyDown', portal)).toBe(path.join(CLIENT_ROOT, PORTAL));
    expect(dependencies!.resolveId('./fetch.js', axiosAdapters)).toBe(path.join(CLIENT_ROOT, AXIOS_STAND_IN));
  });

  it('are each for the version installed, which package.json pins exactly (the portal, which antd brings, through overrides)', () => {
    const manifest = readJson(path.join(REPO, 'package.json')) as Record<'dependencies' | 'overrides', Record<string, string>>;
    const pins = VENDOR_FIXES.map((fix) => [fix.packageName, manifest.dependencies[fix.packageName] ?? manifest.overrides[fix.packageName]]);
    expect(pins).toEqual([
      ['@rc-component/portal', '2.2.1'],
      ['axios', '1.21.1'],
    ]);
    for (const fix of VENDOR_FIXES) {
      expect([fix.packageName, readJson(path.join(NODE_MODULES, fix.packageName, 'package.json')).version]).toEqual([fix.packageName, fix.version]);
      expect(existsSync(path.join(CLIENT_ROOT, fix.replacement))).toBe(true);
    }
  });

  it('when a build starts, resolves and ends against the installed packages, then every fix applies and none complains', () => {
    const build = pluginAt(CLIENT_ROOT);
    build.configResolved({ command: 'build' });
    build.buildStart();
    for (const fix of VENDOR_FIXES) expect(build.resolveId(fix.source, installedImporter(fix))).toBe(path.join(CLIENT_ROOT, fix.replacement));
    expect(() => build.buildEnd()).not.toThrow();
  });

  it('when the installed files are bundled with the plugin, then the output has our modules and not the ones they replace', () => {
    const bundled = bundleWithVendorFixes(CLIENT_ROOT, VENDOR_FIXES.map(installedImporter));
    // Our Escape stack in, the package's out.
    expect(bundled).toContain('const IME_LOCK_MS = 200;');
    expect(bundled).not.toContain('IME_LOCK_DURATION');
    // Our stand-in in, axios's fetch adapter (its probing of the browser) out.
    expect(bundled).toContain('const getFetch = () => false;');
    expect(bundled).not.toContain('DEFAULT_CHUNK_SIZE');
  });
});

describe('a vendor fix that no longer matches the installed package fails the build, saying what did not match', () => {
  let root: string;
  /** A client root whose node_modules hold copies of the files the fixes read, which each test changes. */
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'knack-vendor-fixes-'));
    for (const fix of VENDOR_FIXES) {
      const packageDir = path.join(root, 'node_modules', fix.packageName);
      mkdirSync(path.dirname(path.join(packageDir, fix.importer)), { recursive: true });
      cpSync(path.join(NODE_MODULES, fix.packageName, 'package.json'), path.join(packageDir, 'package.json'));
      cpSync(installedImporter(fix), path.join(packageDir, fix.importer));
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const installedAt = (fix: VendorFix, file: string) => path.join(root, 'node_modules', fix.packageName, file);
  function change(fix: VendorFix, file: string, edit: (text: string) => string) {
    writeFileSync(installedAt(fix, file), edit(readFileSync(installedAt(fix, file), 'utf8')));
  }
  const startBuild = () => () => pluginAt(root).buildStart();

  it('when the copies are as installed, then the build starts', () => {
    expect(startBuild()).not.toThrow();
  });

  it('when the package is another version, then the build stops, naming the version the fix was written for', () => {
    const portal = fixOf('@rc-component/portal');
    change(portal, 'package.json', (text) => text.replace('"version": "2.2.1"', '"version": "2.3.0"'));
    expect(startBuild()).toThrow(
      `vendor fix for @rc-component/portal 2.2.1 (client/${PORTAL}): written for @rc-component/portal 2.2.1, but 2.3.0 is installed at ${path.join(root, 'node_modules', '@rc-component/portal')}. ` +
        'Check that our module still fits es/Portal.js of 2.3.0, then update the version in client/build/vendorFixes.ts and the exact pin in package.json.',
    );
  });

  it('when the file that imports the replaced module moved, then the build stops', () => {
    const portal = fixOf('@rc-component/portal');
    rmSync(installedAt(portal, 'es/Portal.js'));
    expect(startBuild()).toThrow(
      `vendor fix for @rc-component/portal 2.2.1 (client/${PORTAL}): @rc-component/portal has no es/Portal.js any more, so there is nothing to replace.`,
    );
  });

  it('when the import is no longer there (renamed), then the build stops, quoting the text it looked for', () => {
    const axios = fixOf('axios');
    change(axios, 'lib/adapters/adapters.js', (text) => text.replace("from './fetch.js'", "from './fetchAdapter.js'"));
    expect(startBuild()).toThrow(
      `vendor fix for axios 1.21.1 (client/${AXIOS_STAND_IN}): axios/lib/adapters/adapters.js no longer contains \`import * as fetchAdapter from './fetch.js';\`.`,
    );
  });

  it('when the file uses what it imports in another way, then the build stops', () => {
    const axios = fixOf('axios');
    change(axios, 'lib/adapters/adapters.js', (text) => text.replace('get: fetchAdapter.getFetch,', 'get: fetchAdapter.resolveFetch,'));
    expect(startBuild()).toThrow(
      `vendor fix for axios 1.21.1 (client/${AXIOS_STAND_IN}): axios/lib/adapters/adapters.js no longer contains \`get: fetchAdapter.getFetch,\`.`,
    );
  });

  it('when the package is not installed, then the build stops', () => {
    rmSync(path.join(root, 'node_modules', 'axios'), { recursive: true });
    expect(startBuild()).toThrow(`vendor fix for axios 1.21.1 (client/${AXIOS_STAND_IN}): axios is not installed (no node_modules/axios at or above ${root}).`);
  });

  it('when a second copy of the package, of another version, imports the replaced module, then the build stops there', () => {
    const build = pluginAt(root);
    build.buildStart();
    const nested = path.join(root, 'node_modules', 'antd', 'node_modules', '@rc-component', 'portal');
    mkdirSync(path.join(nested, 'es'), { recursive: true });
    writeFileSync(path.join(nested, 'package.json'), JSON.stringify({ name: '@rc-component/portal', version: '2.1.0' }));
    expect(() => build.resolveId('./useEscKeyDown', path.join(nested, 'es', 'Portal.js'))).toThrow(
      `vendor fix for @rc-component/portal 2.2.1 (client/${PORTAL}): written for @rc-component/portal 2.2.1, but 2.1.0 is installed at ${nested}.`,
    );
  });

  it('when a build ends and nothing imported the replaced module (the package is loaded through other files now), then the build fails', () => {
    const build = pluginAt(root);
    build.configResolved({ command: 'build' });
    build.buildStart();
    build.resolveId('./fetch.js', installedAt(fixOf('axios'), 'lib/adapters/adapters.js'));
    expect(() => build.buildEnd()).toThrow(
      `vendor fix for @rc-component/portal 2.2.1 (client/${PORTAL}): nothing in the build imported "./useEscKeyDown" from @rc-component/portal/es/Portal.js, so the fix did not apply.`,
    );
  });

  it('when the dev server stops, having loaded only some pages, then nothing is said about unused fixes', () => {
    const dev = pluginAt(root);
    dev.configResolved({ command: 'serve' });
    dev.buildStart();
    expect(() => dev.buildEnd()).not.toThrow();
  });

  it('when the real bundler meets a changed file, then the bundle fails with the same message', () => {
    const portal = fixOf('@rc-component/portal');
    change(portal, 'es/Portal.js', (text) => text.replace('useEscKeyDown(open, onEsc);', 'useEscKeyDown(open, onEsc, autoLock);'));
    expect(() =>
      bundleWithVendorFixes(
        root,
        VENDOR_FIXES.map((fix) => installedAt(fix, fix.importer)),
      ),
    ).toThrow(
      `vendor fix for @rc-component/portal 2.2.1 (client/${PORTAL}): @rc-component/portal/es/Portal.js no longer contains \`useEscKeyDown(open, onEsc);\`.`,
    );
  });
});

/**
 * The JavaScript the bundler (rolldown, as the client build uses it) makes of `inputs` with the vendor fixes of
 * a client at `root`, everything a package imports by name left out. It runs in a process of its own, as the
 * bundler is an ES module; a failure is thrown with the bundler's message.
 */
function bundleWithVendorFixes(root: string, inputs: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'knack-vendor-bundle-'));
  const script = path.join(dir, 'bundle.mts');
  writeFileSync(
    script,
    `import path from 'node:path';
import { rolldown } from ${JSON.stringify(pathToFileURL(path.join(NODE_MODULES, 'rolldown', 'dist', 'index.mjs')).href)};
import { vendorFixes } from ${JSON.stringify(pathToFileURL(path.join(CLIENT_ROOT, 'build', 'vendorFixes.ts')).href)};
const [root, ...input] = process.argv.slice(2);
const bundle = await rolldown({ input, plugins: [vendorFixes(root)], external: (id) => !id.startsWith('.') && !path.isAbsolute(id), logLevel: 'silent' });
const { output } = await bundle.generate({ format: 'esm' });
process.stdout.write(output.map((file) => (file.type === 'chunk' ? file.code : '')).join('\\n'));
`,
  );
  try {
    return execFileSync(process.execPath, [require.resolve('tsx/cli'), script, root, ...inputs], { cwd: REPO, encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    throw new Error((err as { stderr: string }).stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
