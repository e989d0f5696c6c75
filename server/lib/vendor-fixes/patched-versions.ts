/**
 * The guard of every change the server makes to a package's code. Such a change is written against one version of
 * the package, whose code it copies or replaces; on another version it could quietly do the wrong thing, so the
 * server refuses to start instead. package.json pins each of these packages to exactly this version, so the guard
 * fires only when someone moves the pin without revisiting the change. docs/vendor-patches.md lists every change.
 */
import { createRequire } from 'node:module';

/** The version each patched package must be installed at: the one our changes were written for. */
export const PATCHED_VERSIONS = {
  'express-openapi-validator': '5.6.2',
  /** The driver mongoose loads (its own dependency, pinned through package.json's `overrides`). */
  mongodb: '6.20.0',
} as const;

export type PatchedPackage = keyof typeof PATCHED_VERSIONS;

/** The version of `packageName` that a module at `from` loads. */
export function installedVersion(packageName: string, from: string): string {
  return (createRequire(from)(`${packageName}/package.json`) as { version: string }).version;
}

/**
 * Throws unless the installed `packageName` (as a module at `from` finds it) is the version `change` (our module
 * that changes it, from the repository root) was written for.
 */
export function requirePatchedVersion(packageName: PatchedPackage, change: string, from: string = __filename): void {
  const expected = PATCHED_VERSIONS[packageName];
  const installed = installedVersion(packageName, from);
  if (installed !== expected)
    throw new Error(
      `${change} changes ${packageName} ${expected}, but ${installed} is installed: compare the change with the code of ${installed}, ` +
        'then update its version in server/lib/vendor-fixes/patched-versions.ts and the exact pin in package.json.',
    );
}
