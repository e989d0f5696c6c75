import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FERRETDB_PATCH, isPatchedFerretDb, resolveFerretDb } from '../../server/db/embedded';

/** A stand-in `ferretdb` that prints what a real one prints for --version: a stock build, or ours. */
function fakeFerretDb(dir: string, patched: boolean): string {
  mkdirSync(dir, { recursive: true });
  const binary = path.join(dir, 'ferretdb');
  const lines = [
    'version: v1.24.2',
    'commit: unknown',
    'branch: unknown',
    'dirty: false',
    `package: ${patched ? FERRETDB_PATCH : 'unknown'}`,
    'debugBuild: false',
  ];
  writeFileSync(binary, `#!/bin/sh\nprintf '%s\\n' ${lines.map((line) => `'${line}'`).join(' ')}\n`);
  chmodSync(binary, 0o755);
  return binary;
}

describe('which FerretDB the embedded database starts', () => {
  let root: string;
  let pathDir: string;
  let binDir: string;
  let localBinary: string;
  const noBuild = () => 'go: not on PATH';

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'knack-embedded-'));
    pathDir = path.join(root, 'path');
    binDir = path.join(root, 'bin');
    localBinary = path.join(binDir, 'ferretdb');
    mkdirSync(pathDir);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('tells our build from a stock one by its version output', () => {
    expect(isPatchedFerretDb(fakeFerretDb(path.join(root, 'ours'), true))).toBe(true);
    expect(isPatchedFerretDb(fakeFerretDb(path.join(root, 'stock'), false))).toBe(false);
    expect(isPatchedFerretDb(path.join(root, 'missing', 'ferretdb'))).toBe(false);
  });

  it('when the ferretdb on PATH is ours, then it is used', () => {
    const onPath = fakeFerretDb(pathDir, true);
    fakeFerretDb(binDir, true);
    expect(resolveFerretDb({ localBinary, searchPath: pathDir, build: noBuild })).toEqual({ binary: onPath, tried: [] });
  });

  it('when the ferretdb on PATH is a stock build, then it is passed over for ours', () => {
    const stock = fakeFerretDb(pathDir, false);
    fakeFerretDb(binDir, true);
    expect(resolveFerretDb({ localBinary, searchPath: pathDir, build: noBuild })).toEqual({
      binary: localBinary,
      tried: [`ferretdb at ${stock}: not our build with its fixes (scripts/install-ferretdb.sh)`],
    });
  });

  it('when our folder holds a stock build, then it is rebuilt and the rebuilt one is used', () => {
    fakeFerretDb(binDir, false);
    const built: string[] = [];
    const build = (dir: string) => {
      built.push(dir);
      fakeFerretDb(dir, true);
      return undefined;
    };
    expect(resolveFerretDb({ localBinary, searchPath: pathDir, build })).toEqual({
      binary: localBinary,
      tried: [`ferretdb at ${localBinary}: not our build with its fixes (scripts/install-ferretdb.sh)`],
    });
    expect(built).toEqual([binDir]);
  });

  it('when only stock builds are found and none can be built, then no FerretDB is started and each is named', () => {
    const stock = fakeFerretDb(pathDir, false);
    fakeFerretDb(binDir, false);
    expect(resolveFerretDb({ localBinary, searchPath: pathDir, build: noBuild })).toEqual({
      tried: [
        `ferretdb at ${stock}: not our build with its fixes (scripts/install-ferretdb.sh)`,
        `ferretdb at ${localBinary}: not our build with its fixes (scripts/install-ferretdb.sh)`,
        'go: not on PATH',
      ],
    });
  });

  it('when a build leaves a stock binary, then it is not used', () => {
    const build = (dir: string) => {
      fakeFerretDb(dir, false);
      return undefined;
    };
    expect(resolveFerretDb({ localBinary, searchPath: pathDir, build })).toEqual({
      tried: [`ferretdb: not on PATH nor at ${localBinary}`, `ferretdb built at ${localBinary} lacks our fixes`],
    });
  });
});
