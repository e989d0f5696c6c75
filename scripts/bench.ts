/**
 * `npm run bench`: GET /api/v2/tag/get-all through the whole app (helmet, logging, contract validation,
 * database read, mapping) against a raw node:http server answering the same JSON bytes, in the same run.
 * Prints both request rates and the ratio. Uses MONGODB_URI or the embedded database under a temp dir.
 */
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
import { seedReferenceData } from '../server/db/seed';
import { createLogger } from '../server/lib/logger';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PATH = '/api/v2/tag/get-all';

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

async function measure(name: string, url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  console.log(`${name.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`);
  return result.requests.average;
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'knack-bench-'));
  const base = loadConfig({ ...process.env, NODE_ENV: 'production' });
  const logger = createLogger('silent');
  // A throw-away database server unless MONGODB_URI is given; the FerretDB binary is the project's.
  const embedded = base.mongodbUri ? undefined : await startEmbeddedDatabase({ dataDir, binDir: path.join(base.dataDir, 'bin') });
  const db = await connectDatabase({ ...base, mongodbUri: base.mongodbUri ?? embedded!.uri, dbName: 'knack_bench' }, logger);
  try {
    await seedReferenceData();
    const app = http.createServer(createApp({ config: base, logger, pingDatabase: db.ping }));
    const appUrl = await listen(app);
    const body = Buffer.from(await (await fetch(appUrl + PATH)).arrayBuffer());
    const raw = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
      res.end(body);
    });
    const rawUrl = await listen(raw);

    console.log(`GET ${PATH}: ${body.length} bytes, ${CONNECTIONS} connections, ${DURATION_S} s each`);
    const rawRate = await measure('raw node:http (same JSON)', rawUrl + PATH);
    const appRate = await measure('Knack app', appUrl + PATH);
    console.log(`ratio app/raw: ${(appRate / rawRate).toFixed(3)}`);
    app.close();
    raw.close();
  } finally {
    await db.close();
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
