/**
 * `npm run bench:scale -- [options]`: how each call a page or an integrator makes grows with the data. Every call of
 * scripts/bench-scale.calls.ts is timed against a server started as `npm start` runs it (production settings, the
 * demo seeded at start) on the demo data and on the large data set (`npm run seed:large`, on top of the demo), and
 * the table gives each call's p50 and p99 at both sizes and their ratio (large / demo), sorted by the ratio; a ratio
 * over 1.5 is marked. The goal (docs/scaling.md): every call a page makes stays at 1.5 or under.
 *
 * Both servers run side by side. Each call is asked `--warmups` times unmeasured, then `--requests` times one after
 * the other, by the one who asks it in the app (a typical member, the heavy artist, an admin, the artist's API key),
 * about the same kind of thing in both databases (bench-scale.fixture.ts `pickFixture`); a call that reads by key is
 * asked of the two servers in turn, so that whatever slows the machine for a moment slows both sizes alike, and the
 * ratio is the data's doing (a p99 of a call of a millisecond is otherwise the machine's moment more than the call).
 * A call that takes long stops after `--budget` seconds of measuring per size (at least one request): the table says
 * how many were measured. Answers other than 2xx are counted in
 * the table's last column (a 404 of a call whose subject the demo lacks still measures its reads).
 *
 * Options:
 *   --scale s            the large set's size when this run builds it (default 1: 100k members, 1M ledger entries)
 *   --large-data-dir d   measure the large set that `DATA_DIR=d npm run seed:large` built (its database is started
 *                        from d/db, named by --large-db, default knack), instead of building one
 *   --base-data-dir d    measure against a set built the same way at a smaller scale (e.g. `--scale 0.1`), not
 *                        the demo: the demo's pages and windows are far from full (a member with three threads,
 *                        a chart of 30 pieces), so against it a call whose work is bounded by a page still seems to
 *                        grow. Two built sets fill the same pages, and their ratio is what grows with the data alone.
 *   --requests n         measured requests per call (default 30); --warmups n (default 3); a call limited per
 *                        caller (`limitPerCaller` in the calls list) gets one warm-up and the rest of its allowance
 *                        (the counts an earlier run left in a built data set are emptied first).
 *                        The server allows an API key the most requests a minute it may (API_KEY_REQUESTS_PER_MINUTE):
 *                        its gate counts every one as usual, and a key's calls are measured, not its limit's 429.
 *   --budget s           seconds of measuring per call and size at most (default 60); a call whose warm-up
 *                        takes longer is measured by that one request
 *   --timeout s          a request unanswered after this long (default 120) counts as this long, status `timeout`
 *   --only a,b           only these operationIds
 *   --jobs               run the jobs in the server process, as `npm start` does by default (off: the jobs' own
 *                        work would be measured with the calls' at random)
 *   --load s             at each size, once the calls that read by key (those without a `scans` reason) are
 *                        timed, --clients c (default 8) clients ask them (but the admins' and those limited
 *                        per caller) in turn for s seconds: the requests per
 *                        second, and the CPU time per request of the server's process and of the database's (from
 *                        /proc), for the capacity estimate of docs/scaling.md (default 0: none). The calls with a
 *                        `scans` reason are timed last, so that one of theirs that times out (and goes on in the
 *                        server) shares the machine with nothing measured after it.
 *   --report path        also write the table (markdown) there
 * Before each size is timed, its database's files are read once, so that both are timed from memory.
 * The databases are the embedded FerretDB (built under data/bin), in temporary folders removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { loadConfig } from '../server/config';
import { withDatabaseName } from '../server/db/connection';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../server/db/embedded';
import { signAccessToken } from '../server/lib/access-token';
import { PROJECT_ROOT } from '../server/lib/paths';
import { anyOf } from '../server/lib/query';
import { RateLimitModel } from '../server/lib/rate-limit';
import { UserModel } from '../server/modules/users';
import { startServerProcess, type ServerProcess } from '../tests/helpers/server-process';
import { SCALE_CALLS, type Caller, type Fixture, type ScaleCall } from './bench-scale.calls';
import { pickFixture, writeFixtureExtras } from './bench-scale.fixture';

const JWT_SECRET = 'bench-scale-secret-bench-scale-secret!!';
const ADMIN_EMAIL = 'bench-admin@knack.example';
const RATIO_GOAL = 1.5;
/** The most an API key may be allowed (server/config.ts): the benchmark's key asks thousands of requests a minute. */
const API_KEY_REQUESTS_PER_MINUTE = 100_000;
const BIN_DIR = path.join(PROJECT_ROOT, 'data', 'bin');

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const numberOption = (name: string, fallback: number) => {
  const value = Number(option(name) ?? fallback);
  if (!(value >= 0)) throw new Error(`--${name} must be a number, not ${option(name)}`);
  return value;
};

const REQUESTS = numberOption('requests', 30);
const WARMUPS = numberOption('warmups', 3);
const BUDGET_MS = numberOption('budget', 60) * 1000;
const ONLY = option('only')?.split(',');
const JOBS = process.argv.includes('--jobs');
const TIMEOUT_MS = numberOption('timeout', 120) * 1000;
const LOAD_MS = numberOption('load', 0) * 1000;
const CLIENTS = numberOption('clients', 8);

/** One call's figures at one size. */
export interface Timing {
  p50: number;
  p99: number;
  n: number;
  /** Answers other than 2xx, by status. */
  statuses: Record<string, number>;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

interface Site {
  db: EmbeddedDatabase;
  uri: string;
  dataDir: string;
  dbName: string;
}

/** The embedded database on a data folder, as `npm start` would start it there. */
async function openSite(dataDir: string, dbName: string): Promise<Site> {
  const db = await startEmbeddedDatabase({ dataDir, binDir: BIN_DIR });
  return { db, uri: db.uri, dataDir, dbName };
}

/** The server as `npm start` runs it on the site (its own process, production settings, the demo seeded if empty). */
function startServer(site: Site) {
  return startServerProcess(
    {
      NODE_ENV: 'production',
      // Info, not less: the server's "Knack is running at" line is how startServerProcess knows it listens.
      LOG_LEVEL: 'info',
      JWT_SECRET,
      PAYMENTS_PROVIDER: 'sandbox',
      MONGODB_URI: site.uri,
      DB_NAME: site.dbName,
      DATA_DIR: site.dataDir,
      SEED_DEMO: 'true',
      JOBS_IN_PROCESS: JOBS ? 'true' : 'false',
      TRUST_PROXY: 'loopback',
      PUBLIC_URL: 'http://127.0.0.1',
      ADMIN_EMAILS: ADMIN_EMAIL,
      API_KEY_REQUESTS_PER_MINUTE: String(API_KEY_REQUESTS_PER_MINUTE),
    },
    { timeoutMs: 1_800_000 },
  );
}

let clientNumber = 0;

/** One request, as a client behind the proxy (each its own address, as members are), timed in ms; status 0 when it timed out. */
async function timed(base: string, pathAndQuery: string, authorization: string | undefined): Promise<{ ms: number; status: number }> {
  clientNumber += 1;
  const headers: Record<string, string> = { 'X-Forwarded-For': `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}` };
  if (authorization) headers.Authorization = authorization;
  const started = performance.now();
  try {
    const res = await fetch(`${base}/api/v2${pathAndQuery}`, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch (err) {
    if ((err as Error).name !== 'TimeoutError') throw err;
    return { ms: TIMEOUT_MS, status: 0 };
  }
}

/** The times of a call's requests, sorted, with the answers other than 2xx by status. */
class Samples {
  readonly times: number[] = [];
  readonly statuses: Record<string, number> = {};

  add({ ms, status }: { ms: number; status: number }): void {
    this.times.push(ms);
    if (status >= 200 && status < 300) return;
    const key = status === 0 ? 'timeout' : String(status);
    this.statuses[key] = (this.statuses[key] ?? 0) + 1;
  }

  timing(): Timing {
    const sorted = [...this.times].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: sorted.length, statuses: this.statuses };
  }
}

/** A call limited per caller gets one warm-up and the rest of its allowance measured. */
const warmupsOf = (call: ScaleCall) => (call.limitPerCaller ? Math.min(WARMUPS, 1) : WARMUPS);
const requestsOf = (call: ScaleCall) => (call.limitPerCaller ? Math.min(REQUESTS, call.limitPerCaller - warmupsOf(call)) : REQUESTS);

/** One request of the call to the site, about its fixture, as the one who asks it. */
const ask = (site: ReadySite, call: ScaleCall) => timed(site.server.url, call.path(site.fixture), site.auth[call.as]);

/** One call on one site: its warm-ups, then its requests one after the other, within the budget. */
async function measure(site: ReadySite, call: ScaleCall): Promise<Timing> {
  const samples = new Samples();
  for (let i = 0; i < warmupsOf(call); i++) {
    const warm = await ask(site, call);
    // A call slower than the whole budget is measured by this one request (a second would take as long again);
    // one slower than a tenth of it is warm after one request, and the budget goes to measuring it.
    if (warm.ms > BUDGET_MS) samples.add(warm);
    if (warm.ms > BUDGET_MS / 10) break;
  }
  const measuredByWarmUp = samples.times.length > 0;
  const started = Date.now();
  while (!measuredByWarmUp && samples.times.length < requestsOf(call) && (samples.times.length === 0 || Date.now() - started < BUDGET_MS)) {
    samples.add(await ask(site, call));
  }
  return samples.timing();
}

/**
 * One call on both sites at once, their requests taken in turn (the base's and the large set's, then the other way
 * round): whatever slows the machine for a moment (another process, a flush of the page cache, the clock's speed)
 * falls on both alike, so that their ratio is the data's doing. Within the budget of both sizes together.
 */
async function measurePair(call: ScaleCall, pair: [ReadySite, ReadySite]): Promise<[Timing, Timing]> {
  const samples = [new Samples(), new Samples()] as const;
  for (let i = 0; i < warmupsOf(call); i++) {
    await ask(pair[0], call);
    await ask(pair[1], call);
  }
  const started = Date.now();
  for (let i = 0; i < requestsOf(call) && (i === 0 || Date.now() - started < 2 * BUDGET_MS); i++) {
    for (const side of i % 2 ? ([1, 0] as const) : ([0, 1] as const)) samples[side].add(await ask(pair[side], call));
  }
  return [samples[0].timing(), samples[1].timing()];
}

/** A process's CPU time so far (user and system), in ms, from /proc (Linux); null when it cannot be read. */
function cpuMsOf(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields 14 and 15 of /proc/{pid}/stat, after the command in parentheses (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/** The process listening on the database's port (the embedded FerretDB), found by its command line in /proc. */
function databasePid(uri: string): number | undefined {
  const port = new URL(uri).port;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (command.includes(`--listen-addr=127.0.0.1:${port}`)) return Number(entry);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** What the load phase measured at one size. */
export interface Load {
  requests: number;
  seconds: number;
  notOk: number;
  /** CPU ms per request of the server's process, and of the database's (null when not found). */
  serverCpuMs: number | null;
  databaseCpuMs: number | null;
}

/** `CLIENTS` clients asking `calls` in turn (each client from its own place in the list) for LOAD_MS. */
async function load(
  base: string,
  calls: ScaleCall[],
  fixture: Fixture,
  auth: Record<Caller, string | undefined>,
  serverPid: number,
  dbPid: number | undefined,
): Promise<Load> {
  const before = { server: cpuMsOf(serverPid), database: cpuMsOf(dbPid) };
  const started = Date.now();
  let requests = 0;
  let notOk = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; Date.now() - started < LOAD_MS; i++) {
        const call = calls[i % calls.length]!;
        const { status } = await timed(base, call.path(fixture), auth[call.as]);
        requests += 1;
        if (status < 200 || status >= 300) notOk += 1;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const after = { server: cpuMsOf(serverPid), database: cpuMsOf(dbPid) };
  const perRequest = (a: number | null, b: number | null) => (a === null || b === null ? null : (b - a) / Math.max(1, requests));
  return { requests, seconds, notOk, serverCpuMs: perRequest(before.server, after.server), databaseCpuMs: perRequest(before.database, after.database) };
}

/** One line of the load phase's figures. */
export function loadLine(label: string, figures: Load): string {
  const cpu = (value: number | null) => (value === null ? 'unknown' : `${value.toFixed(2)} ms`);
  return `${label}: ${(figures.requests / figures.seconds).toFixed(1)} requests/s with ${CLIENTS} clients for ${figures.seconds.toFixed(0)} s (${figures.requests} requests, ${figures.notOk} not 2xx); CPU per request: server ${cpu(figures.serverCpuMs)}, database ${cpu(figures.databaseCpuMs)}`;
}

/** Every call timed on one site: its server started, the callers signed in, the fixture picked, the server stopped. */
/**
 * Reads every file of the site's database once, so that both sizes are timed with their data in memory, as a
 * database's working set is in production: otherwise the calls timed first at the large size pay for the disk
 * reads of a 7 GB file that another set's run pushed out of the page cache, and the load phase after them does not.
 */
async function warmPageCache(dir: string): Promise<void> {
  const started = Date.now();
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    for await (const chunk of createReadStream(path.join(entry.parentPath, entry.name), { highWaterMark: 1 << 20 })) bytes += (chunk as Buffer).length;
  }
  console.log(`  read ${(bytes / 2 ** 30).toFixed(1)} GiB of ${dir} into the page cache in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** A site ready to be asked: its server, what the calls are about in its database, and its callers' credentials. */
interface ReadySite {
  label: string;
  site: Site;
  server: ServerProcess;
  fixture: Fixture;
  auth: Record<Caller, string | undefined>;
  /** Signs the callers in again: an access token lasts minutes, and a run takes longer. */
  signIn: () => void;
}

/** Starts the site's server, and picks and writes what its calls are about, signed in as the ones who ask them. */
async function prepareSite(label: string, site: Site): Promise<ReadySite> {
  await warmPageCache(path.join(site.dataDir, 'db'));
  const startedAt = Date.now();
  const server = await startServer(site);
  console.log(`${label}: server ready in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
  try {
    await mongoose.connect(withDatabaseName(site.uri, site.dbName));
    // A built data set outlives the run: the hits an earlier run counted this hour are removed (the way an operator
    // lifts every limit at once), so that each run starts with every caller's allowance.
    await RateLimitModel.deleteMany({});
    const picked = await pickFixture();
    // The admin the admin pages are asked as (ADMIN_EMAILS names it): made once, straight in the database.
    if (!(await UserModel.exists({ email: ADMIN_EMAIL })))
      await UserModel.create({ email: ADMIN_EMAIL, username: 'bench_admin', fullName: 'Bench Admin', isActive: true });
    const admin = (await UserModel.findOne({ email: ADMIN_EMAIL }, { tokenVersion: 1 }).lean())!;
    const users = await UserModel.find({ _id: anyOf([picked.member.id, picked.artist.id]) }, { tokenVersion: 1 }).lean();
    await mongoose.disconnect();
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET, PAYMENTS_PROVIDER: 'sandbox' });
    const bearer = (id: string, tokenVersion = users.find((user) => String(user._id) === id)?.tokenVersion ?? 0) =>
      `Bearer ${signAccessToken(config.auth, { userId: id, tokenVersion })}`;
    const auth: Record<Caller, string | undefined> = { member: undefined, artist: undefined, admin: undefined, key: undefined, anonymous: undefined };
    const signIn = () => {
      auth.member = bearer(picked.member.id);
      auth.artist = bearer(picked.artist.id);
      auth.admin = bearer(String(admin._id), admin.tokenVersion);
    };
    signIn();
    const post = async <T>(as: string, route: string, body: unknown): Promise<T> => {
      const res = await fetch(`${server.url}/api/v2${route}`, {
        method: 'POST',
        headers: { Authorization: as, 'Content-Type': 'application/json', 'X-Forwarded-For': '10.255.0.1' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    };
    const { fixture, keySecret } = await writeFixtureExtras(post, picked, { member: auth.member!, artist: auth.artist! });
    auth.key = `Bearer ${keySecret}`;
    const { historyItems, followings, pieceComments } = picked.shape;
    console.log(
      `${label}: member ${fixture.member.username} (${historyItems} history items, follows ${followings}), artist ${fixture.artist.username}, ` +
        `piece ${fixture.piece.ownerUsername}/${fixture.piece.slug} (${pieceComments} comments)`,
    );
    return { label, site, server, fixture, auth, signIn };
  } catch (err) {
    await mongoose.disconnect();
    await server.stop();
    throw err;
  }
}

const timingLine = (label: string, call: ScaleCall, timing: Timing) => {
  const odd = Object.entries(timing.statuses).map(([status, count]) => `${status}x${count}`);
  return `  ${label} ${call.operationId} (${call.pages}): p50 ${timing.p50.toFixed(1)} ms, p99 ${timing.p99.toFixed(1)} ms, n ${timing.n}${odd.length ? `, ${odd.join(' ')}` : ''}`;
};

/**
 * Every call timed on both sites, whose servers run side by side. The calls that read by key are asked of both in
 * turn (measurePair). Then each site's load on its own, then the calls that may read a collection whole (the admin
 * pages, the downloads), one site after the other: a request of theirs that times out goes on in the server, and
 * would share the machine with what is measured after it.
 */
async function measureSites(
  pair: [ReadySite, ReadySite],
  calls: ScaleCall[],
  loads: Map<string, Load>,
): Promise<[Map<ScaleCall, Timing>, Map<ScaleCall, Timing>]> {
  const results = [new Map<ScaleCall, Timing>(), new Map<ScaleCall, Timing>()] as const;
  const bounded = calls.filter((call) => !call.scans);
  for (const call of bounded) {
    for (const ready of pair) ready.signIn();
    const timings = await measurePair(call, pair);
    for (const side of [0, 1] as const) {
      results[side].set(call, timings[side]);
      console.log(timingLine(pair[side].label, call, timings[side]));
    }
  }
  if (LOAD_MS > 0) {
    for (const ready of pair) {
      ready.signIn();
      // The load is the pages' traffic: not the admins' calls, nor those limited per caller, whose loop would
      // measure their limit's 429 (and a heavy artist's statement, a download a member may ask a few times an hour,
      // is seconds of work that grows with their own entries: asked by eight clients it would be most of the CPU).
      const figures = await load(
        ready.server.url,
        bounded.filter((each) => each.as !== 'admin' && !each.limitPerCaller),
        ready.fixture,
        ready.auth,
        ready.server.pid,
        databasePid(ready.site.uri),
      );
      loads.set(ready.label, figures);
      console.log(loadLine(ready.label, figures));
    }
  }
  for (const side of [0, 1] as const) {
    for (const call of calls.filter((each) => each.scans)) {
      pair[side].signIn();
      const timing = await measure(pair[side], call);
      results[side].set(call, timing);
      console.log(timingLine(pair[side].label, call, timing));
    }
  }
  return [results[0], results[1]];
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

/** The markdown table: one row per call, sorted by the larger of its two ratios, the ones over the goal marked. */
export function scaleTable(calls: ScaleCall[], demo: Map<ScaleCall, Timing>, large: Map<ScaleCall, Timing>, baseLabel = 'demo'): string {
  const rows = calls
    .map((call) => {
      const a = demo.get(call)!;
      const b = large.get(call)!;
      const r50 = b.p50 / Math.max(a.p50, 0.001);
      const r99 = b.p99 / Math.max(a.p99, 0.001);
      return { call, a, b, r50, r99, worst: Math.max(r50, r99) };
    })
    .sort((x, y) => y.worst - x.worst);
  const statuses = (t: Timing) =>
    Object.entries(t.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
  const lines = [
    `| call | pages | p50 / p99 ${baseLabel} (ms) | p50 / p99 large (ms) | ratio p50 / p99 | n ${baseLabel} / large | not 2xx (${baseLabel}; large) |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(({ call, a, b, r50, r99, worst }) => {
      const mark = worst > RATIO_GOAL ? ' **over 1.5**' : '';
      const odd = statuses(a) || statuses(b) ? `${statuses(a) || '-'}; ${statuses(b) || '-'}` : '';
      return `| ${call.operationId} \`${call.as}\` | ${call.pages} | ${ms(a.p50)} / ${ms(a.p99)} | ${ms(b.p50)} / ${ms(b.p99)} | ${r50.toFixed(2)} / ${r99.toFixed(2)}${mark} | ${a.n} / ${b.n} | ${odd} |`;
    }),
  ];
  return lines.join('\n');
}

async function main() {
  const calls = SCALE_CALLS.filter((call) => !ONLY || ONLY.includes(call.operationId));
  const scale = numberOption('scale', 1);
  const largeDir = option('large-data-dir');
  const temp = mkdtempSync(path.join(os.tmpdir(), 'knack-bench-scale-'));
  const started = Date.now();
  const loads = new Map<string, Load>();
  try {
    const baseDir = option('base-data-dir');
    const baseLabel = baseDir ? 'base' : 'demo';
    const opened: Site[] = [];
    const ready: ReadySite[] = [];
    let demo: Map<ScaleCall, Timing>;
    let large: Map<ScaleCall, Timing>;
    try {
      const demoSite = await openSite(baseDir ?? path.join(temp, 'demo'), 'knack');
      opened.push(demoSite);
      const largeSite = await openSite(largeDir ?? path.join(temp, 'large'), largeDir ? (option('large-db') ?? 'knack') : 'knack');
      opened.push(largeSite);
      if (!largeDir) {
        console.log(`large: building the data set at scale ${scale} (npm run seed:large)`);
        execFileSync(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/seed-large.ts'), '--scale', String(scale)], {
          cwd: PROJECT_ROOT,
          stdio: 'inherit',
          env: { ...process.env, MONGODB_URI: withDatabaseName(largeSite.uri, largeSite.dbName), DATA_DIR: largeSite.dataDir, JWT_SECRET, LOG_LEVEL: 'warn' },
        });
      }
      ready.push(await prepareSite(baseLabel, demoSite));
      ready.push(await prepareSite('large', largeSite));
      [demo, large] = await measureSites([ready[0]!, ready[1]!], calls, loads);
    } finally {
      for (const each of ready) await each.server.stop();
      for (const site of opened) await site.db.stop();
    }

    const table = scaleTable(calls, demo, large, baseLabel);
    const over = calls.filter((call) => Math.max(large.get(call)!.p50 / demo.get(call)!.p50, large.get(call)!.p99 / demo.get(call)!.p99) > RATIO_GOAL);
    const summary = `${calls.length} calls, ${over.length} over ${RATIO_GOAL}; ${REQUESTS} requests each after ${WARMUPS} warm-ups (at most ${BUDGET_MS / 1000} s of measuring per call); jobs ${JOBS ? 'in the server process' : 'off'}; took ${((Date.now() - started) / 60_000).toFixed(0)} min.`;
    const loadLines = [...loads].map(([label, figures]) => loadLine(label, figures)).join('\n');
    console.log(`\n${table}\n\n${summary}${loadLines ? `\n\n${loadLines}` : ''}`);
    const report = option('report');
    if (report) writeFileSync(report, `${table}\n\n${summary}\n${loadLines ? `\n${loadLines}\n` : ''}`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  });
}
