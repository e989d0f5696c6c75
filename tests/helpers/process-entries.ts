/**
 * The entries of the tests' child processes (a second app, a crash test's app, the server as `npm start` runs it),
 * bundled once per test run by esbuild. Started through tsx, each process spent about 1.5 s of a core resolving and
 * loading some 500 TypeScript modules through its loader hooks before it could listen; from one bundled file it loads
 * in about half the time, and the crash and two-process tests start well over a hundred processes in a run.
 *
 * The bundles are written under node_modules/.cache (the packages stay outside the bundle and must resolve from
 * there, and the server finds the project root by walking up to openapi.yaml), one folder per run, removed by the
 * teardown. Without a bundle (a script importing these helpers outside jest), the TypeScript entry runs through tsx.
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const REPO_ROOT = path.resolve(__dirname, '../..');

const ENTRIES = {
  'app-process': 'tests/helpers/app-process.ts',
  'crash-process': 'tests/helpers/crash-process.ts',
  server: 'server/index.ts',
} as const;

export type ProcessEntryName = keyof typeof ENTRIES;

/** The variable through which jest's workers learn the run's bundle folder from the global setup. */
const BUNDLE_DIR_VARIABLE = 'KNACK_TEST_PROCESS_BUNDLES';

/** Bundles every entry into a folder of this run's own (global setup; once, however many jest projects run). */
export async function bundleProcessEntries(): Promise<void> {
  if (process.env[BUNDLE_DIR_VARIABLE]) return;
  const cache = path.join(REPO_ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(path.join(cache, 'knack-test-processes-'));
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(REPO_ROOT, file)])),
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // The packages load from node_modules as they do for the app; only our own code is bundled.
    packages: 'external',
    // package.json declares the client's side effects (its CSS) for the client bundler; the server's imports
    // made for their side effects (the database settings, the action keys' registry) must all run.
    ignoreAnnotations: true,
    keepNames: true,
    // A failure's stack names the TypeScript file and line (the processes run with --enable-source-maps).
    sourcemap: true,
    logLevel: 'error',
  });
  process.env[BUNDLE_DIR_VARIABLE] = outdir;
}

/** Removes this run's bundles (global teardown). */
export function removeProcessBundles(): void {
  const dir = process.env[BUNDLE_DIR_VARIABLE];
  if (!dir) return;
  delete process.env[BUNDLE_DIR_VARIABLE];
  rmSync(dir, { recursive: true, force: true });
}

/** What to start for `name`: its bundle, or its TypeScript file through tsx when the run made no bundles. */
export function processEntry(name: ProcessEntryName): { file: string; execArgv: string[] } {
  const dir = process.env[BUNDLE_DIR_VARIABLE];
  if (dir) return { file: path.join(dir, `${name}.js`), execArgv: ['--enable-source-maps'] };
  return { file: path.join(REPO_ROOT, ENTRIES[name]), execArgv: ['--import', 'tsx'] };
}
