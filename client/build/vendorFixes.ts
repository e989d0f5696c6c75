/**
 * Corrected copies of vendor modules, put in place of the originals when the client is built. Each entry names
 * the package and the exact version it was written for (package.json pins that version), the package's file that
 * imports the module we replace, the text of that file our module is written to fit, and our module, which says why.
 *
 * A fix that stops fitting fails the build instead of silently no longer applying:
 * - at the start, when the installed package is another version, or its file is gone or no longer says that text;
 * - when a copy of the package of another version imports the module (a second copy, nested under another package);
 * - at the end of a build, when nothing imported the module (the package is now loaded through other files).
 * docs/vendor-patches.md lists every fix, its test, and when to remove it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export interface VendorFix {
  /** The package, as npm names it. */
  packageName: string;
  /** The version our module was written for: package.json pins exactly this one (`overrides` for a package antd brings). */
  version: string;
  /** The package's file that imports the module we replace, from the package's folder. */
  importer: string;
  /** The import as that file writes it. */
  source: string;
  /** Text the importer must contain for our module to fit: the import, and how the file uses what it imports. */
  expects: string[];
  /** Our module, from the client's root. */
  replacement: string;
}

export const VENDOR_FIXES: readonly VendorFix[] = [
  {
    // The Escape stack of antd's modals, drawers and popups (see the copy for the bug).
    packageName: '@rc-component/portal',
    version: '2.2.1',
    importer: 'es/Portal.js',
    source: './useEscKeyDown',
    expects: ['import useEscKeyDown from "./useEscKeyDown";', 'useEscKeyDown(open, onEsc);'],
    replacement: 'src/lib/vendor-fixes/useEscKeyDown.ts',
  },
  {
    // axios's fetch adapter, which the SPA never uses and which probes the browser as it loads (see the stand-in).
    packageName: 'axios',
    version: '1.21.1',
    importer: 'lib/adapters/adapters.js',
    source: './fetch.js',
    expects: ["import * as fetchAdapter from './fetch.js';", 'get: fetchAdapter.getFetch,'],
    replacement: 'src/lib/vendor-fixes/axiosFetchAdapter.ts',
  },
];

const posix = (file: string) => file.split(path.sep).join('/');

/** How a failure of `fix` begins: which fix, for which version, and our module. */
const fixName = (fix: VendorFix) => `vendor fix for ${fix.packageName} ${fix.version} (client/${fix.replacement})`;

function versionAt(packageDir: string): string {
  return (JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
}

function wrongVersion(fix: VendorFix, installed: string, packageDir: string): Error {
  return new Error(
    `${fixName(fix)}: written for ${fix.packageName} ${fix.version}, but ${installed} is installed at ${packageDir}. ` +
      `Check that our module still fits ${fix.importer} of ${installed}, then update the version in client/build/vendorFixes.ts and the exact pin in package.json.`,
  );
}

/** The package's folder as Node finds it from `root`: the nearest node_modules above it that has the package. */
function installedPackageDir(root: string, packageName: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', packageName);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Throws, naming the fix and what did not match, unless the installed package is the one `fix` was written for. */
export function checkVendorFix(fix: VendorFix, root: string): void {
  const packageDir = installedPackageDir(root, fix.packageName);
  if (!packageDir) throw new Error(`${fixName(fix)}: ${fix.packageName} is not installed (no node_modules/${fix.packageName} at or above ${root}).`);
  const installed = versionAt(packageDir);
  if (installed !== fix.version) throw wrongVersion(fix, installed, packageDir);
  const importerFile = path.join(packageDir, fix.importer);
  if (!existsSync(importerFile)) throw new Error(`${fixName(fix)}: ${fix.packageName} has no ${fix.importer} any more, so there is nothing to replace.`);
  const text = readFileSync(importerFile, 'utf8');
  const missing = fix.expects.filter((expected) => !text.includes(expected));
  if (missing.length > 0)
    throw new Error(`${fixName(fix)}: ${fix.packageName}/${fix.importer} no longer contains ${missing.map((expected) => `\`${expected}\``).join(' or ')}.`);
}

export function vendorFixes(clientRoot: string, fixes: readonly VendorFix[] = VENDOR_FIXES): Plugin {
  /** The fixes some module of this build imported. */
  const applied = new Set<VendorFix>();
  /** Whether this is a build (the dev server loads modules as pages ask for them, so it cannot tell what is unused). */
  let building = true;

  /** Our module in place of `source` when `importer` is the package file a fix names, else null. */
  function replace(source: string, importer: string | undefined): string | null {
    if (!importer) return null;
    const importerPath = posix(importer);
    const fix = fixes.find((candidate) => candidate.source === source && importerPath.endsWith(`/node_modules/${candidate.packageName}/${candidate.importer}`));
    if (!fix) return null;
    // This copy of the package, which may not be the one checked at the start (one nested under another package).
    const packageDir = importer.slice(0, importer.length - fix.importer.length - 1);
    const installed = versionAt(packageDir);
    if (installed !== fix.version) throw wrongVersion(fix, installed, packageDir);
    applied.add(fix);
    return path.join(clientRoot, fix.replacement);
  }

  return {
    name: 'knack-vendor-fixes',
    enforce: 'pre',
    // The dev server bundles packages ahead (dependency pre-bundling) without the app's plugins: the fixes go there too.
    config: () => ({ optimizeDeps: { rolldownOptions: { plugins: [{ name: 'knack-vendor-fixes:dependencies', resolveId: replace }] } } }),
    configResolved(config) {
      building = config.command === 'build';
    },
    buildStart() {
      applied.clear();
      for (const fix of fixes) checkVendorFix(fix, clientRoot);
    },
    resolveId: replace,
    buildEnd(error) {
      if (error || !building) return;
      const unused = fixes.filter((fix) => !applied.has(fix));
      if (unused.length > 0)
        throw new Error(
          unused
            .map((fix) => `${fixName(fix)}: nothing in the build imported "${fix.source}" from ${fix.packageName}/${fix.importer}, so the fix did not apply.`)
            .join('\n'),
        );
    },
  };
}
