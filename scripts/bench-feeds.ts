/**
 * `npm run bench` (part 2): the discovery reads against bare baselines, measured in the same run.
 *  1. The Popular feed (20 pieces) through the whole app vs raw node:http answering the same JSON bytes.
 *  2. Page 500 vs page 1 of the Popular feed, uncached (each request a distinct page size, so the short
 *     public-page cache never answers): what a deep keyset page costs compared with the first.
 *  3. Search suggestions at 50 connections vs a node:http hello.
 * The servers run in a child process and the load in this one. Uses MONGODB_URI, or a throw-away
 * embedded database, filled with BENCH_PIECES pieces (default 10 050, enough for 500 pages of 20).
 * BENCH_ONLY=feed,pages,suggestions runs only the named parts (comma-separated; default all).
 * BENCH_PROFILE=<dir> writes a CPU profile of the servers there.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import autocannon from 'autocannon';
import { listen, onMessage, startBenchChild } from './bench-child';
import { Types } from 'mongoose';
import { wordsOf } from '../server/lib/search';
import { ContentModel } from '../server/modules/contents';
import { encodeCursor, feedListOf } from '../server/modules/feeds/testing';
import { UserModel } from '../server/modules/users';

const PIECES = Number(process.env.BENCH_PIECES ?? 10_050);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const FEED = '/api/v2/content/get-by-kind/popular?limit=20';
const SUGGEST = '/api/v2/content/get-all-titles?q=blue%20ja';
const PARTS = ['feed', 'pages', 'suggestions'] as const;
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const runs = (part: (typeof PARTS)[number]) => !ONLY || ONLY.includes(part);
const WORDS = ['blue', 'jazz', 'night', 'lisbon', 'dusk', 'red', 'train', 'fox', 'snow', 'tiny', 'castle', 'rain', 'glass', 'lake'];

interface Ready {
  appUrl: string;
  rawUrl: string;
  page500Cursor: string;
}

/** Pieces written straight to the database (publishing 10 000 real uploads would take the bench an hour). */
async function fillCatalogue() {
  const owners = await UserModel.insertMany(
    Array.from({ length: 50 }, (_, i) => ({
      email: `artist${i}@bench.example`,
      username: `artist_${i}`,
      fullName: `Artist ${i}`,
      isActive: true,
      contentsCount: 0,
    })),
  );
  const key = (i: number) => `images/2026/01/${String(i).padStart(24, '0')}`;
  for (let start = 0; start < PIECES; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, PIECES - start) }, (_, n) => {
      const i = start + n;
      const owner = owners[i % owners.length]!;
      const title = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`;
      const uploadedAt = new Date(Date.now() - i * 60_000);
      return {
        ownerId: owner._id,
        ownerUsername: owner.username,
        ownerName: owner.fullName,
        title,
        slug: title.replace(/ /g, '-'),
        titleWords: wordsOf(title),
        description: 'A bench piece',
        tags: [{ name: 'Photos' }],
        subTag: 'Travel',
        type: 'photos',
        photoUploadId: new Types.ObjectId(),
        media: {
          photoKey: `${key(i)}.jpg`,
          thumbKeys: { thumb: `${key(i)}-thumb.webp`, mthumb: `${key(i)}-mthumb.webp`, hthumb: `${key(i)}-hthumb.webp`, wthumb: `${key(i)}-wthumb.webp` },
          fileSize: 1000,
          fileType: 'image/jpeg',
        },
        knackRateMicros: 50_000,
        reactedCount: (i * 7919) % 997,
        listed: true,
        uploadedAt,
        featureRank: uploadedAt.getTime(),
        radarScore: 1,
      };
    });
    await ContentModel.insertMany(batch);
  }
  await UserModel.updateMany({}, { $set: { contentsCount: Math.ceil(PIECES / owners.length) } });
}

/** Child: database, catalogue, the app and the raw server. */
async function serve() {
  const child = await startBenchChild('feeds');
  await fillCatalogue();
  const appUrl = await child.startApp();
  const feedBody = Buffer.from(await (await fetch(appUrl + FEED)).arrayBuffer());
  const hello = Buffer.from('{"hello":"world"}');
  const raw = http.createServer((req, res) => {
    const body = req.url === '/feed' ? feedBody : hello;
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  const rawUrl = await listen(raw);
  // The position after which page 500 starts (the 9 980th piece by the Popular order).
  const [last] = await ContentModel.find({}, { reactedCount: 1 })
    .sort({ reactedCount: -1, _id: -1 })
    .skip(Math.min(499 * 20, PIECES - 20) - 1)
    .limit(1)
    .lean();
  process.send!({ appUrl, rawUrl, page500Cursor: encodeCursor(feedListOf({ kind: 'popular' }), { key: last!.reactedCount, id: last!._id }) } satisfies Ready);
  onMessage(async () => {
    raw.close();
    await child.close();
    process.exit(0);
  });
}

async function rate(name: string, url: string, connections: number) {
  const result = await autocannon({ url, connections, duration: DURATION_S });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  console.log(`  ${name.padEnd(34)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`);
  return result;
}

/** How long one uncached page takes (a page size of its own, so the public-page cache never answers). */
async function timePage(url: string, limit: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as { contents: unknown[] };
  if (res.status !== 200 || body.contents.length !== limit) throw new Error(`${url}: ${res.status}, ${body.contents.length} pieces`);
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/**
 * Page 1 and page 500, `count` times each, in turn (so that other load on the machine falls on both):
 * the median of each and the median of the pair ratios.
 */
async function firstAndDeepPages(url: (limit: number, cursor?: string) => string, cursor: string, count = 9) {
  const first: number[] = [];
  const deep: number[] = [];
  for (let i = 0; i < count; i += 1) {
    first.push(await timePage(url(20 + i), 20 + i));
    deep.push(await timePage(url(20 + i, cursor), 20 + i));
  }
  return { first: median(first), deep: median(deep), ratio: median(deep.map((ms, i) => ms / first[i]!)) };
}

async function main() {
  const child = fork(
    __filename,
    ['--serve'],
    process.env.BENCH_PROFILE ? { execArgv: [...process.execArgv, '--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROFILE] } : {},
  );
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    console.log(`Feeds over ${PIECES} pieces, ${DURATION_S} s per run`);

    const probe = await fetch(ready.appUrl + FEED);
    if (probe.status !== 200) throw new Error(`${FEED}: ${probe.status} ${await probe.text()}`);
    if (runs('feed')) {
      console.log('1. Popular feed, 20 pieces, 20 connections');
      await rate('warm-up', ready.appUrl + FEED, 20);
      const raw = await rate('raw node:http (same JSON)', `${ready.rawUrl}/feed`, 20);
      const app = await rate('Knack app', ready.appUrl + FEED, 20);
      console.log(`  ratio app/raw: ${(app.requests.average / raw.requests.average).toFixed(3)} (goal >= 0.35)`);
    }

    if (runs('pages')) {
      console.log('2. Page 500 vs page 1 of Popular, uncached (9 of each, in turn)');
      const popular = (limit: number, cursor?: string) =>
        `${ready.appUrl}/api/v2/content/get-by-kind/popular?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
      const { first, deep, ratio } = await firstAndDeepPages(popular, ready.page500Cursor);
      console.log(`  page 1: ${first.toFixed(1)} ms   page 500: ${deep.toFixed(1)} ms (medians)   median pair ratio ${ratio.toFixed(2)} (goal <= 1.2)`);
    }

    if (runs('suggestions')) {
      console.log('3. Search suggestions, 50 connections');
      await rate('warm-up', ready.appUrl + SUGGEST, 50);
      const hello = await rate('raw node:http hello', `${ready.rawUrl}/hello`, 50);
      const suggest = await rate('Knack suggestions', ready.appUrl + SUGGEST, 50);
      console.log(
        `  ratio app/hello: ${(suggest.requests.average / hello.requests.average).toFixed(3)} (goal >= 0.5), p99 ${suggest.latency.p99} ms (goal < 20)`,
      );
    }
  } finally {
    child.send('stop');
  }
}

if (process.argv.includes('--serve')) void serve();
else if (!PARTS.some(runs)) console.log('Feeds: no part asked (BENCH_ONLY)');
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
