/**
 * `npm run bench`: GET /api/v2/tag/get-all through the whole app (helmet, logging, contract validation,
 * tag list read, mapping) against a raw node:http server answering the same JSON bytes, in the same run.
 * The two servers run in a child process and autocannon in this one, so the load generator does not
 * share a thread with what it measures. Prints both request rates and the ratio.
 * Uses MONGODB_URI, or a throw-away embedded database (the project's FerretDB binary under data/bin).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { connectDatabase } from '../server/db/connection';
import { startEmbeddedDatabase } from '../server/db/embedded';
import { outboxMailer } from '../server/integrations/mail';
import { localStorage } from '../server/integrations/storage';
import { seedReferenceData } from '../server/db/seed';
import { createLogger } from '../server/lib/logger';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PATH = '/api/v2/tag/get-all';

interface Ready {
  appUrl: string;
  rawUrl: string;
  bytes: number;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Child: database, seed, the app and the raw server; tells the parent their URLs, stops on 'stop'. */
async function serve() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'knack-bench-'));
  const config = loadConfig({ ...process.env, NODE_ENV: 'production' });
  const logger = createLogger('silent');
  const embedded = config.mongodbUri ? undefined : await startEmbeddedDatabase({ dataDir, binDir: path.join(config.dataDir, 'bin') });
  const db = await connectDatabase({ ...config, mongodbUri: config.mongodbUri ?? embedded!.uri, dbName: 'knack_bench' }, logger);
  await seedReferenceData();
  const app = http.createServer(createApp({ config, logger, pingDatabase: db.ping, mailer: outboxMailer(path.join(dataDir, 'mail'), config.mail.from), storage: localStorage(path.join(dataDir, 'uploads')) }));
  const appUrl = await listen(app);
  const body = Buffer.from(await (await fetch(appUrl + PATH)).arrayBuffer());
  const raw = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  const rawUrl = await listen(raw);
  process.send!({ appUrl, rawUrl, bytes: body.length } satisfies Ready);
  process.on('message', async () => {
    app.close();
    raw.close();
    await db.close();
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

async function measure(name: string, url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  console.log(`${name.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`);
  return result.requests.average;
}

async function main() {
  const child: ChildProcess = fork(__filename, ['--serve'], { execArgv: [...process.execArgv, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])] });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    console.log(`GET ${PATH}: ${ready.bytes} bytes, ${CONNECTIONS} connections, ${DURATION_S} s each`);
    await measure('warm-up', ready.appUrl + PATH);
    const rawRate = await measure('raw node:http (same JSON)', ready.rawUrl + PATH);
    const appRate = await measure('Knack app', ready.appUrl + PATH);
    console.log(`ratio app/raw: ${(appRate / rawRate).toFixed(3)}`);
  } finally {
    child.send('stop');
  }
}

(process.argv.includes('--serve') ? serve() : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
