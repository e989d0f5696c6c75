/**
 * The entries of the tests' child processes (a second app, a crash test's app, the server as `npm start` runs it),
 * bundled once per test run by esbuild. Started through tsx, each process spent about 1.5 s of a core resolving and
 * loading some 500 TypeScript modules through its loader hooks before it could listen; from one bundled file it loads
 * in about half the time, and the crash and two-process tests start well over a hundred processes in a run.
 *
 * The bundles are written under node_modules/.cache (the packages stay outside the bundle and must resolve from
 * there, and the server finds the project root by walking up to openapi.yaml), one folder per run, removed by the
 * teardown (and, if a run was killed before it, by a run a day later). Without a bundle (a script importing these helpers outside jest), the TypeScript entry runs through tsx.
 */
import { mkdtempSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
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
const BUNDLE_DIR_PREFIX = 'knack-test-processes-';
/** A run takes well under this: a bundle folder older is one a killed run never removed. */
const LEFT_OVER_AFTER_MS = 24 * 60 * 60_000;

/** Removes the bundle folders of runs killed before their teardown (never a live run's: those are younger). */
function removeLeftOverBundles(cache: string): void {
  for (const name of readdirSync(cache)) {
    if (!name.startsWith(BUNDLE_DIR_PREFIX)) continue;
    const dir = path.join(cache, name);
    if (Date.now() - statSync(dir).mtimeMs > LEFT_OVER_AFTER_MS) rmSync(dir, { recursive: true, force: true });
  }
}

/** Bundles every entry into a folder of this run's own (global setup; once, however many jest projects run). */
export async function bundleProcessEntries(): Promise<void> {
  if (process.env[BUNDLE_DIR_VARIABLE]) return;
  const cache = path.join(REPO_ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  removeLeftOverBundles(cache);
  const outdir = mkdtempSync(path.join(cache, BUNDLE_DIR_PREFIX));
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
