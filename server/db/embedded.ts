/**
 * The embedded database used when MONGODB_URI is not set, so that the app runs with no configuration.
 * In this order:
 *   1. a `mongod` on PATH;
 *   2. a `ferretdb` binary on PATH or under <dataDir>/bin, if it is our build (see FERRETDB_PATCH);
 *   3. if Go is present, FerretDB v1.24.2 built into <dataDir>/bin first (scripts/install-ferretdb.sh);
 *   4. mongodb-memory-server (downloads a real mongod where the network allows).
 * Data is kept under <dataDir>/db across restarts. The same resolution serves the tests, on a temp dir.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/paths';

export type EmbeddedKind = 'mongod' | 'ferretdb' | 'mongodb-memory-server';

export interface EmbeddedDatabase {
  kind: EmbeddedKind;
  /** mongodb://127.0.0.1:PORT (no database name). */
  uri: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Data goes to <dataDir>/db. */
  dataDir: string;
  /** Where a FerretDB binary is looked for and built; default <dataDir>/bin. */
  binDir?: string;
  log?: (message: string) => void;
  /** The port to listen on; default a free one. A database restarted on its port and folder is the same one to its clients. */
  port?: number;
}

export class NoDatabaseError extends Error {
  constructor(tried: string[]) {
    super(
      'No database is available. Set MONGODB_URI to a MongoDB (6+) or FerretDB server, for example ' +
        'MONGODB_URI=mongodb://127.0.0.1:27017/knack, or install one of: mongod, FerretDB, or Go (to build FerretDB). ' +
        `Tried: ${tried.join('; ')}`,
    );
    this.name = 'NoDatabaseError';
  }
}

/** The first executable file of that name in the PATH's folders, as the shell would find it. */
function onPath(binary: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not there, or not executable: the next folder
    }
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts a database server process and waits until it accepts connections. */
async function startProcess(kind: EmbeddedKind, binary: string, args: string[], port: number): Promise<EmbeddedDatabase> {
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 40) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  // A database left running after the app dies would hold the data directory: stop it with us.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const deadline = Date.now() + 60_000;
  while (!(await canConnect(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      process.removeListener('exit', killOnExit);
      throw new Error(`${kind} did not start: ${output.join('').trim().slice(-2000) || 'no output'}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    kind,
    uri: `mongodb://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        process.removeListener('exit', killOnExit);
        if (exited) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function startMongod(binary: string, dbDir: string, port: number): Promise<EmbeddedDatabase> {
  mkdirSync(dbDir, { recursive: true });
  return startProcess('mongod', binary, ['--dbpath', dbDir, '--port', String(port), '--bind_ip', '127.0.0.1', '--quiet'], port);
}

/**
 * What `ferretdb --version` prints (as `package: ...`) for a binary built by scripts/install-ferretdb.sh. That
 * build fixes two things of FerretDB 1.24: a find by `_id` uses the unique index (stock reads the whole collection
 * for it, 365 ms at 40,000 documents), and an update command of 100 statements or more completes (stock hangs, and
 * every later command on that database with it). A binary without this mark is not used.
 */
export const FERRETDB_PATCH = 'knack-sqlite-fixes';

/** Whether a FerretDB binary is our build with its fixes: it says so in its version output. */
export function isPatchedFerretDb(binary: string): boolean {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return result.status === 0 && result.stdout.split('\n').some((line) => line.trim() === `package: ${FERRETDB_PATCH}`);
}

export interface FerretDbSearch {
  /** Where our own build lives, e.g. <dataDir>/bin/ferretdb. */
  localBinary: string;
  /** The PATH searched for a `ferretdb`; default process.env.PATH. */
  searchPath?: string;
  /** Builds FerretDB at localBinary; answers why it failed, or undefined. Default: the install script, when Go is present. */
  build?: (binDir: string, log: (message: string) => void) => string | undefined;
  log?: (message: string) => void;
}

function buildWithScript(binDir: string, log: (message: string) => void): string | undefined {
  if (!onPath('go')) return 'go: not on PATH';
  log(`Building FerretDB v1.24.2 with its fixes into ${binDir} (once; a few minutes)`);
  const build = spawnSync('bash', [path.join(PROJECT_ROOT, 'scripts', 'install-ferretdb.sh'), binDir], { encoding: 'utf8' });
  return build.status === 0 ? undefined : `go build of FerretDB failed: ${(build.stderr || build.stdout || '').trim().slice(-500)}`;
}

/** The FerretDB binary to start: one with the `_id` index fix on PATH, else ours, built if missing or stock. */
export function resolveFerretDb({ localBinary, searchPath, build = buildWithScript, log = () => {} }: FerretDbSearch): { binary?: string; tried: string[] } {
  const tried: string[] = [];
  const candidates = new Set([onPath('ferretdb', searchPath), existsSync(localBinary) ? localBinary : undefined]);
  for (const candidate of candidates) {
    if (!candidate) continue;
    if (isPatchedFerretDb(candidate)) return { binary: candidate, tried };
    tried.push(`ferretdb at ${candidate}: not our build with its fixes (scripts/install-ferretdb.sh)`);
  }
  if (tried.length === 0) tried.push(`ferretdb: not on PATH nor at ${localBinary}`);
  const failure = build(path.dirname(localBinary), log);
  if (failure) tried.push(failure);
  else if (existsSync(localBinary) && isPatchedFerretDb(localBinary)) return { binary: localBinary, tried };
  else tried.push(`ferretdb built at ${localBinary} lacks our fixes`);
  return { tried };
}

/**
 * SQLite settings of the embedded database. FerretDB already sets WAL (journal_mode) and a busy timeout;
 * synchronous(normal) then syncs the disk at checkpoints instead of at every commit. A power cut can lose the
 * last commits but cannot corrupt the file; an app crash loses nothing. Production runs MongoDB.
 */
export const FERRETDB_SQLITE_PARAMS = '_pragma=synchronous(normal)';

async function startFerretDb(binary: string, dbDir: string, port: number): Promise<EmbeddedDatabase> {
  mkdirSync(dbDir, { recursive: true });
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${dbDir}/?${FERRETDB_SQLITE_PARAMS}`,
    `--listen-addr=127.0.0.1:${port}`,
    `--state-dir=${dbDir}`,
    '--telemetry=disable',
    '--debug-addr=-',
    '--log-level=warn',
  ];
  return startProcess('ferretdb', binary, args, port);
}

async function startMemoryServer(dbDir: string): Promise<EmbeddedDatabase> {
  mkdirSync(dbDir, { recursive: true });
  const { MongoMemoryServer } = await import('mongodb-memory-server-core');
  const server = await MongoMemoryServer.create({ instance: { dbPath: dbDir, storageEngine: 'wiredTiger', ip: '127.0.0.1' } });
  return {
    kind: 'mongodb-memory-server',
    uri: server.getUri().replace(/\/$/, ''),
    stop: async () => {
      await server.stop({ doCleanup: false, force: false });
    },
  };
}

export async function startEmbeddedDatabase({ dataDir, binDir, log = () => {}, port }: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dbRoot = path.join(dataDir, 'db');
  const tried: string[] = [];

  const mongod = onPath('mongod');
  if (mongod) {
    log(`Starting mongod (${mongod}) with data in ${path.join(dbRoot, 'mongod')}`);
    return startMongod(mongod, path.join(dbRoot, 'mongod'), port ?? (await freePort()));
  }
  tried.push('mongod: not on PATH');

  const { binary: ferret, tried: ferretTried } = resolveFerretDb({ localBinary: path.join(binDir ?? path.join(dataDir, 'bin'), 'ferretdb'), log });
  tried.push(...ferretTried);
  if (ferret) {
    log(`Starting FerretDB (${ferret}) with data in ${path.join(dbRoot, 'ferretdb')}`);
    return startFerretDb(ferret, path.join(dbRoot, 'ferretdb'), port ?? (await freePort()));
  }

  try {
    log('Starting mongodb-memory-server');
    return await startMemoryServer(path.join(dbRoot, 'memory-server'));
  } catch (err) {
    tried.push(`mongodb-memory-server: ${(err as Error).message.split('\n')[0]}`);
  }
  throw new NoDatabaseError(tried);
}
