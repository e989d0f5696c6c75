/**
 * `npm run bench` (part 6): the earnings analytics call for a member with BENCH_LEDGER_ENTRIES (default 100,000)
 * knack entries over the last 30 days, against raw node:http answering the same JSON bytes, in one run.
 *  1. Cached (the same question again, as the modal asks when reopened): requests a second at 20 connections,
 *     goal at least 35% of raw.
 *  2. Uncached: each question asked once (every tag of the catalogue for a month and for a week, one at a time):
 *     p50 and p99, goal p99 under 200 ms. The call reads the daily rollups by `_id`, so neither grows with the ledger.
 * The ledger is written straight to the database (as knack/add writes its entries), then counted once by the
 * rollups job. Uses MONGODB_URI, or a throw-away embedded database. BENCH_ONLY=analytics runs only this part.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import autocannon from 'autocannon';
import { Types } from 'mongoose';
import { signAccessToken } from '../server/lib/access-token';
import { refreshRollups } from '../server/modules/analytics';
import { ContentModel } from '../server/modules/contents';
import { knackLegs, LedgerEntryModel } from '../server/modules/ledger';
import { SubscriptionModel } from '../server/modules/subscriptions';
import { TagModel, type TagDoc } from '../server/modules/tags';
import { UserModel } from '../server/modules/users';
import { listen, onMessage, startBenchChild } from './bench-child';

const ENTRIES = Number(process.env.BENCH_LEDGER_ENTRIES ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const runs = !ONLY || ONLY.includes('analytics');
const DAY_MS = 86_400_000;

interface Ready {
  appUrl: string;
  rawUrl: string;
  path: string;
  token: string;
  questions: string[];
}

/** The member's pieces (a few per sub-tag) and ENTRIES knacks of them by as many listeners, over the last 30 days. */
async function fillLedger(now: Date) {
  const member = await UserModel.create({ email: 'earner@bench.example', username: 'bench_earner', fullName: 'Bench Earner', isActive: true });
  await SubscriptionModel.create({ userId: member._id, planId: 2, subscriptionId: 'bench-plan' });
  const tags = (await TagModel.find().lean<TagDoc[]>()).filter((tag) => tag.parentTag);
  const pieces = await ContentModel.insertMany(
    tags.flatMap((tag, t) =>
      Array.from({ length: 3 }, (_, n) => ({
        ownerId: member._id,
        ownerUsername: member.username,
        ownerName: member.fullName,
        title: `${tag.label} ${n}`,
        slug: `bench-${t}-${n}`,
        titleWords: [],
        description: 'A bench piece',
        tags: [{ name: tag.type === 'music' ? 'Music' : tag.type === 'art' ? 'Art' : 'Photos' }],
        subTag: tag.label,
        type: tag.type,
        photoUploadId: new Types.ObjectId(),
        media: { photoKey: `bench-${t}-${n}.jpg`, thumbKeys: {}, fileSize: 1, fileType: 'image/jpeg' },
        knackRateMicros: 50_000,
        isPaidOut: true,
        payerId: member._id,
        listed: true,
        featureRank: now.getTime() - t * 3 - n,
      })),
    ),
  );
  const tagOf = new Map(tags.map((tag) => [tag.label, tag._id]));
  for (let done = 0; done < ENTRIES; done += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, ENTRIES - done) }, (_, i) => {
      const n = done + i;
      // Skewed as real plays are: the first pieces get most of them.
      const piece = pieces[Math.floor(pieces.length * (n / ENTRIES) ** 3)]!;
      const viewer = new Types.ObjectId();
      const legs = knackLegs(50_000, String(member._id), String(member._id));
      return {
        _id: `knack:${String(piece._id)}:${String(viewer)}`,
        kind: 'knack',
        at: new Date(now.getTime() - ((n * 7919 * 60_000) % (30 * DAY_MS))),
        actorId: viewer,
        contentId: piece._id,
        legs,
        method: null,
        amountMicros: null,
        ref: null,
        tagId: tagOf.get(piece.subTag),
        accounts: legs.map((leg) => leg.account),
      };
    });
    await LedgerEntryModel.collection.insertMany(batch as never[], { ordered: false });
  }
  return { member, tags };
}

/** Child: database, ledger, rollups, the app and the raw server. */
async function serve() {
  const child = await startBenchChild('analytics');
  const now = new Date();
  const { member, tags } = await fillLedger(now);
  const counted = performance.now();
  const run = await refreshRollups(now);
  console.log(
    `  rollups of ${ENTRIES} entries counted in ${((performance.now() - counted) / 1000).toFixed(1)} s (${run.rollups} rollups over ${run.daysCounted} days)`,
  );
  const appUrl = await child.startApp();
  const token = signAccessToken(child.config.auth, { userId: String(member._id), tokenVersion: 0 });
  const path = `/api/v2/analytics/earnings/${String(member._id)}?period=month&type=music`;
  const answer = await fetch(appUrl + path, { headers: { Authorization: `Bearer ${token}` } });
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  const body = Buffer.from(await answer.arrayBuffer());
  const raw = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  const rawUrl = await listen(raw);
  const questions = tags.flatMap((tag) =>
    ['month', 'week'].map((period) => `/api/v2/analytics/earnings/${String(member._id)}?period=${period}&type=${tag.type}&tagId=${String(tag._id)}`),
  );
  process.send!({ appUrl, rawUrl, path, token, questions } satisfies Ready);
  onMessage(async () => {
    raw.close();
    await child.close();
    process.exit(0);
  });
}

async function rate(name: string, url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 20, duration: DURATION_S, headers });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  console.log(`  ${name.padEnd(34)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`);
  return result;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

async function main() {
  const child = fork(__filename, ['--serve']);
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const auth = { Authorization: `Bearer ${ready.token}` };
    console.log(`Earnings analytics for a member with ${ENTRIES} ledger entries, ${DURATION_S} s per run`);
    console.log('1. The same question again (cached), 20 connections');
    await rate('warm-up', ready.appUrl + ready.path, auth);
    const raw = await rate('raw node:http (same JSON)', ready.rawUrl);
    const app = await rate('Knack app', ready.appUrl + ready.path, auth);
    console.log(`  ratio app/raw: ${(app.requests.average / raw.requests.average).toFixed(3)} (goal >= 0.35)`);

    console.log(`2. Each question once (uncached): ${ready.questions.length} questions, one at a time`);
    const times: number[] = [];
    for (const question of ready.questions) {
      const started = performance.now();
      const res = await fetch(ready.appUrl + question, { headers: auth });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${question}: ${res.status}`);
      times.push(performance.now() - started);
    }
    const p99 = quantile(times, 0.99);
    console.log(`  p50 ${quantile(times, 0.5).toFixed(1)} ms   p99 ${p99.toFixed(1)} ms (goal < 200)`);
  } finally {
    child.send('stop');
  }
}

if (process.argv.includes('--serve')) void serve();
else if (!runs) console.log('Analytics: no part asked (BENCH_ONLY)');
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
