/**
 * `npm run bench`: Knack against bare baselines, measured in the same run.
 *  1. GET /api/v2/tag/get-all through the whole app vs a raw node:http server answering the same bytes.
 *  2. Memory growth of the server across 20 concurrent streams of a 100 MB file (goal < 50 MB), measured
 *     before any other file was streamed.
 *  3. Audio bytes from /files (Range-capable, permission-checked) vs a plain fs.createReadStream server.
 *  4. Upload-to-thumbnails rate (multipart upload, sniffing, sharp, storage) vs bare sharp doing the same sizes
 *     (the same processImage, from a fresh temp file each time), one upload and one bare run in turn.
 * The servers run in a child process and the load in this one, so the load generator does not share a
 * thread with what it measures. Uses MONGODB_URI, or a throw-away embedded database.
 * BENCH_ONLY=tags,memory,files,upload runs only the named parts (comma-separated; default all; the feeds
 * bench, scripts/bench-feeds.ts, has parts feed, pages and suggestions).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { rm, truncate, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { listen, onMessage, startBenchChild } from './bench-child';
import sharp from 'sharp';
import { signAccessToken } from '../server/lib/access-token';
import { processImage } from '../server/modules/media/testing';
import { StoredFileModel } from '../server/modules/media';
import { UserModel } from '../server/modules/users';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const TAGS_PATH = '/api/v2/tag/get-all';
const BIG_FILE_BYTES = 100 * 1024 * 1024;
const STREAMS = 20;
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const PARTS = ['tags', 'memory', 'files', 'upload'] as const;
const runs = (part: (typeof PARTS)[number]) => !ONLY || ONLY.includes(part);

interface Ready {
  appUrl: string;
  rawUrl: string;
  rawFileUrl: string;
  fileKey: string;
  token: string;
  tagBytes: number;
}

type Request = { type: 'stop' } | { type: 'memory-start' } | { type: 'memory-stop' } | { type: 'sharp'; count: number };

async function photo(): Promise<Buffer> {
  return sharp({ create: { width: 2400, height: 1600, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .composite([{ input: Buffer.from('<svg width="2400" height="1600"><circle cx="1200" cy="800" r="600" fill="orange"/></svg>'), top: 0, left: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Child: database, seed, the app, the raw servers, a member and a stored 100 MB audio file. */
async function serve() {
  const child = await startBenchChild('media');
  const { config, dataDir, storage } = child;
  const appUrl = await child.startApp();

  const tagBody = Buffer.from(await (await fetch(appUrl + TAGS_PATH)).arrayBuffer());
  const bigFile = path.join(dataDir, 'big.wav');
  await writeFile(bigFile, Buffer.alloc(0));
  await truncate(bigFile, BIG_FILE_BYTES);
  const fileKey = 'audio/2026/01/0123456789abcdef01234567.wav';
  await storage.putFile(fileKey, bigFile, 'audio/wav');
  const member = await UserModel.create({ email: 'bench@knack.example', username: 'bench_member', isActive: true });
  await StoredFileModel.create({ _id: fileKey, uploadId: member._id, contentType: 'audio/wav', visibility: 'public' });

  const raw = http.createServer((req, res) => {
    if (req.url === '/file') {
      res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': BIG_FILE_BYTES });
      createReadStream(bigFile).pipe(res);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': tagBody.length });
    res.end(tagBody);
  });
  const rawUrl = await listen(raw);
  const token = signAccessToken(config.auth, { userId: String(member._id), tokenVersion: 0 });
  process.send!({ appUrl, rawUrl, rawFileUrl: `${rawUrl}/file`, fileKey, token, tagBytes: tagBody.length } satisfies Ready);

  const image = await photo();
  let memory: { before: number; peak: number; timer: NodeJS.Timeout } | undefined;
  let bareRuns = 0;
  onMessage(async (message: Request) => {
    if (message.type === 'memory-start') {
      global.gc?.();
      const before = process.memoryUsage().rss;
      memory = { before, peak: before, timer: setInterval(() => (memory!.peak = Math.max(memory!.peak, process.memoryUsage().rss)), 20) };
      process.send!({ before });
    } else if (message.type === 'memory-stop') {
      clearInterval(memory!.timer);
      process.send!({ before: memory!.before, peak: memory!.peak });
    } else if (message.type === 'sharp') {
      const started = performance.now();
      for (let i = 0; i < message.count; i++) {
        const file = path.join(dataDir, `bench-photo-${bareRuns++}.jpg`); // a new name, as each upload has
        await writeFile(file, image);
        await processImage(file, 'jpg');
        await rm(file);
      }
      process.send!({ seconds: (performance.now() - started) / 1000 });
    } else {
      raw.close();
      await child.close();
      process.exit(0);
    }
  });
}

async function measureRequests(name: string, url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  console.log(`  ${name.padEnd(30)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`);
  return result.requests.average;
}

/** Downloads `url` with `streams` concurrent requests; answers MB/s. */
async function measureBytes(url: string, streams: number, rounds = 1): Promise<number> {
  const started = performance.now();
  let bytes = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', resolve);
          res.on('error', reject);
        })
        .on('error', reject);
    });
  for (let r = 0; r < rounds; r++) await Promise.all(Array.from({ length: streams }, one));
  return bytes / 1024 / 1024 / ((performance.now() - started) / 1000);
}

/** Uploads `count` photos one after another; answers the seconds taken. */
async function uploadPhotos(appUrl: string, token: string, body: Buffer, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(body)], { type: 'image/jpeg' }), 'bench.jpg');
    const res = await fetch(`${appUrl}/api/v2/content/upload-photo`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  }
  return (performance.now() - started) / 1000;
}

async function main() {
  const child: ChildProcess = fork(__filename, ['--serve'], {
    execArgv: [...process.execArgv, '--expose-gc', ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
  });
  const ask = <T>(message: Request) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(message);
    });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });

    if (runs('tags')) {
      console.log(`1. GET ${TAGS_PATH}: ${ready.tagBytes} bytes, ${CONNECTIONS} connections, ${DURATION_S} s each`);
      await measureRequests('warm-up', ready.appUrl + TAGS_PATH);
      const rawRate = await measureRequests('raw node:http (same JSON)', ready.rawUrl + TAGS_PATH);
      const appRate = await measureRequests('Knack app', ready.appUrl + TAGS_PATH);
      console.log(`  ratio app/raw: ${(appRate / rawRate).toFixed(3)}`);
    }

    const fileUrl = `${ready.appUrl}/files/${ready.fileKey}`;
    if (runs('memory')) {
      console.log(`2. Server memory across ${STREAMS} concurrent streams of the 100 MB file`);
      await ask({ type: 'memory-start' });
      await measureBytes(fileUrl, STREAMS);
      const { before, peak } = await ask<{ before: number; peak: number }>({ type: 'memory-stop' });
      const growth = (peak - before) / 1024 / 1024;
      console.log(
        `  RSS before ${(before / 1024 / 1024).toFixed(0)} MB, peak ${(peak / 1024 / 1024).toFixed(0)} MB: growth ${growth.toFixed(1)} MB (goal < 50)`,
      );
    }

    if (runs('files')) {
      console.log(`3. Audio bytes, a 100 MB file, 4 concurrent streams x 3 rounds`);
      await measureBytes(fileUrl, 1);
      const rawMb = await measureBytes(ready.rawFileUrl, 4, 3);
      const appMb = await measureBytes(fileUrl, 4, 3);
      console.log(`  fs.createReadStream server ${rawMb.toFixed(0).padStart(8)} MB/s`);
      console.log(`  Knack /files               ${appMb.toFixed(0).padStart(8)} MB/s`);
      console.log(`  ratio /files / raw: ${(appMb / rawMb).toFixed(3)} (goal >= 0.8)`);
    }

    if (runs('upload')) {
      console.log(`4. Upload to thumbnails: ${UPLOADS} JPEGs of 2400x1600 each way, one upload and one bare run in turn`);
      const body = await photo();
      await uploadPhotos(ready.appUrl, ready.token, body, 2);
      await ask({ type: 'sharp', count: 2 });
      // In turn, so that load from elsewhere on the machine falls on both sides alike.
      const pairs: { upload: number; sharp: number }[] = [];
      for (let i = 0; i < UPLOADS; i++) {
        const upload = await uploadPhotos(ready.appUrl, ready.token, body, 1);
        pairs.push({ upload, sharp: (await ask<{ seconds: number }>({ type: 'sharp', count: 1 })).seconds });
      }
      const total = (side: 'upload' | 'sharp') => pairs.reduce((sum, pair) => sum + pair[side], 0);
      const ratios = pairs.map((pair) => pair.sharp / pair.upload).sort((x, y) => x - y);
      console.log(`  bare sharp (same sizes)    ${(UPLOADS / total('sharp')).toFixed(1).padStart(8)} images/s`);
      console.log(`  Knack upload-photo         ${(UPLOADS / total('upload')).toFixed(1).padStart(8)} images/s`);
      console.log(
        `  ratio upload / sharp: ${(total('sharp') / total('upload')).toFixed(3)} (goal >= 0.9); median pair ${ratios[ratios.length >> 1]!.toFixed(3)}`,
      );
    }
  } finally {
    child.send({ type: 'stop' } satisfies Request);
  }
}

const start = process.argv.includes('--serve') ? serve : PARTS.some(runs) ? main : async () => console.log('Tags and files: no part asked (BENCH_ONLY)');
start().catch((err) => {
  console.error(err);
  process.exit(1);
});
