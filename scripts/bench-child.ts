/**
 * What every benchmark's child process starts with: a throw-away data folder, the production config, the
 * database (the embedded FerretDB unless MONGODB_URI is set) with the reference data, and the app on a
 * loopback port; `close` stops it all and removes the folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../server/app';
import { loadConfig, type Config } from '../server/config';
import { connectDatabase } from '../server/db/connection';
import { startEmbeddedDatabase } from '../server/db/embedded';
import { seedReferenceData } from '../server/db/seed';
import { outboxMailer } from '../server/integrations/mail';
import { localStorage, type Storage } from '../server/integrations/storage';
import { localIpfsPinning } from '../server/integrations/ipfs';
import { createLogger } from '../server/lib/logger';

/** Listens on a free loopback port; answers the server's address. */
export function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Handles each message from the parent process; a handler that fails ends the child with its error. */
export function onMessage<T>(handle: (message: T) => Promise<void>): void {
  process.on('message', (message: T) => {
    handle(message).catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  });
}

export interface BenchChild {
  config: Config;
  dataDir: string;
  storage: Storage;
  /** Starts the app (call after filling the database, so that nothing is cached before). */
  startApp(): Promise<string>;
  close(): Promise<void>;
}

export async function startBenchChild(name: string): Promise<BenchChild> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `knack-bench-${name}-`));
  const config = loadConfig({
    PAYMENTS_PROVIDER: 'sandbox',
    ...process.env,
    NODE_ENV: 'production',
    JWT_SECRET: process.env.JWT_SECRET ?? 'bench-secret-bench-secret-bench-secret!',
  });
  const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent');
  const embedded = config.mongodbUri ? undefined : await startEmbeddedDatabase({ dataDir, binDir: path.join(config.dataDir, 'bin') });
  const db = await connectDatabase({ ...config, mongodbUri: config.mongodbUri ?? embedded!.uri, dbName: `knack_bench_${name}` }, logger);
  await seedReferenceData();
  const storage = localStorage(path.join(dataDir, 'uploads'));
  let app: http.Server | undefined;
  return {
    config,
    dataDir,
    storage,
    startApp() {
      app = http.createServer(
        createApp({
          config,
          logger,
          pingDatabase: () => db.ping(),
          mailer: outboxMailer(path.join(dataDir, 'mail'), config.mail.from),
          storage,
          ipfs: localIpfsPinning(path.join(dataDir, 'ipfs'), config.publicUrl),
        }),
      );
      return listen(app);
    },
    async close() {
      app?.close();
      await db.close();
      await embedded?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
