/**
 * The embedded database used when MONGODB_URI is not set (ARCHITECTURE §2, §3). In this order:
 *   1. a `mongod` on PATH;
 *   2. a `ferretdb` binary on PATH or under <dataDir>/bin;
 *   3. if Go is present, FerretDB v1.24.2 built into <dataDir>/bin first (scripts/install-ferretdb.sh);
 *   4. mongodb-memory-server (downloads a real mongod where the network allows).
 * Data is kept under <dataDir>/db across restarts. The same resolution serves the tests, on a temp dir.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
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

function onPath(binary: string): string | undefined {
  const result = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : undefined;
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

async function startMongod(binary: string, dbDir: string): Promise<EmbeddedDatabase> {
  const port = await freePort();
  mkdirSync(dbDir, { recursive: true });
  return startProcess('mongod', binary, ['--dbpath', dbDir, '--port', String(port), '--bind_ip', '127.0.0.1', '--quiet'], port);
}

async function startFerretDb(binary: string, dbDir: string): Promise<EmbeddedDatabase> {
  const port = await freePort();
  mkdirSync(dbDir, { recursive: true });
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${dbDir}/`,
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

export async function startEmbeddedDatabase({ dataDir, binDir, log = () => {} }: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dbRoot = path.join(dataDir, 'db');
  const tried: string[] = [];

  const mongod = onPath('mongod');
  if (mongod) {
    log(`Starting mongod (${mongod}) with data in ${path.join(dbRoot, 'mongod')}`);
    return startMongod(mongod, path.join(dbRoot, 'mongod'));
  }
  tried.push('mongod: not on PATH');

  const localFerret = path.join(binDir ?? path.join(dataDir, 'bin'), 'ferretdb');
  let ferret = onPath('ferretdb') ?? (existsSync(localFerret) ? localFerret : undefined);
  if (!ferret) {
    tried.push(`ferretdb: not on PATH nor at ${localFerret}`);
    if (onPath('go')) {
      log(`Building FerretDB v1.24.2 with Go into ${path.dirname(localFerret)} (once; about a minute)`);
      const build = spawnSync('bash', [path.join(PROJECT_ROOT, 'scripts', 'install-ferretdb.sh'), path.dirname(localFerret)], {
        encoding: 'utf8',
      });
      if (build.status === 0 && existsSync(localFerret)) ferret = localFerret;
      else tried.push(`go build of FerretDB failed: ${(build.stderr || build.stdout || '').trim().slice(-500)}`);
    } else {
      tried.push('go: not on PATH');
    }
  }
  if (ferret) {
    log(`Starting FerretDB (${ferret}) with data in ${path.join(dbRoot, 'ferretdb')}`);
    return startFerretDb(ferret, path.join(dbRoot, 'ferretdb'));
  }

  try {
    log('Starting mongodb-memory-server');
    return await startMemoryServer(path.join(dbRoot, 'memory-server'));
  } catch (err) {
    tried.push(`mongodb-memory-server: ${(err as Error).message.split('\n')[0]}`);
  }
  throw new NoDatabaseError(tried);
}
