/**
 * `npm run bench` (part 7): the earnings statement of a member with BENCH_STATEMENT_ENTRIES (default 1,000,000)
 * ledger entries, downloaded whole through the app as CSV (BENCH_STATEMENT_FORMATS=csv,json adds JSON), against the bare read of the same entries
 * (the same read of the member's chains, in the same order, counted and dropped: no pieces, no lines, no HTTP), in one run. Prints each
 * one's time and the server process's RSS growth while it ran (sampled every 20 ms from a collected heap; goal
 * under 50 MB for the app), and checks that the file's last balance is the member's balance.
 *
 * The entries are written straight to the database as the app writes them, by a process of its own (so that the
 * server's memory does not start out grown by the writing): knacks of the member's 30 pieces (90%
 * to them, 10% to a supporter) spread over the last 365 days, and on each 1st of a month the payout of the whole
 * balance in cents; then the member's running balance is rebuilt from them. Uses MONGODB_URI, or a throw-away embedded
 * database (FerretDB, whose memory is printed beside ours). BENCH_ONLY=statement runs only this part.
 */
import { execFile, fork } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import mongoose, { Types } from 'mongoose';
import { withDatabaseName } from '../server/db/connection';
import { signAccessToken } from '../server/lib/access-token';
import { truncateToCents } from '../server/lib/money';
import { ContentModel } from '../server/modules/contents';
import { rebuildKeptState } from '../server/lib/kept-state';
import { balanceOf, knackLegs, ledgerBalancesState, LedgerEntryModel, openMemberEntries, userAccount } from '../server/modules/ledger';
import { UserModel } from '../server/modules/users';
import { onMessage, startBenchChild } from './bench-child';

const ENTRIES = Number(process.env.BENCH_STATEMENT_ENTRIES ?? 1_000_000);
/** The formats downloaded: CSV by default (on FerretDB each download of a million entries takes minutes). */
const FORMATS = (process.env.BENCH_STATEMENT_FORMATS ?? 'csv').split(',').map((format) => format.trim()) as ('csv' | 'json')[];
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const runs = !ONLY || ONLY.includes('statement');
const DAY_MS = 86_400_000;
const KNACK_MICROS = 50_000;
const MB = 1024 * 1024;
const run = promisify(execFile);

interface Ready {
  appUrl: string;
  userId: string;
  from: string;
  to: string;
  balanceMicros: number;
}

type Request = { type: 'memory-start' } | { type: 'memory-stop' } | { type: 'raw' } | { type: 'stop' };

interface Measured {
  seconds: number;
  /** The CPU this process spent meanwhile (the rest of the time it waited on the database). */
  cpuSeconds: number;
  growthMb: number;
  peakMb: number;
  /** The embedded FerretDB's peak RSS while it ran, when that is the database. */
  databasePeakMb: number | null;
}

/** The member, their pieces, and ENTRIES entries of theirs over the last 365 days, ending yesterday. */
async function fillLedger(now: Date) {
  const member = await UserModel.create({ email: 'statement@bench.example', username: 'bench_statement', fullName: 'Bench Statement', isActive: true });
  const supporter = new Types.ObjectId();
  const pieces = await ContentModel.insertMany(
    Array.from({ length: 30 }, (_, n) => ({
      ownerId: member._id,
      ownerUsername: member.username,
      ownerName: member.fullName,
      title: n % 7 === 0 ? `Piece ${n}, "the one" with a comma` : `Piece ${n}`,
      slug: `bench-statement-${n}`,
      titleWords: [],
      description: 'A bench piece',
      tags: [{ name: n % 3 === 0 ? 'Music' : 'Photos' }],
      subTag: '',
      type: n % 3 === 0 ? 'music' : 'photos',
      photoUploadId: new Types.ObjectId(),
      media: { photoKey: `bench-statement-${n}.jpg`, thumbKeys: {}, fileSize: 1, fileType: 'image/jpeg' },
      knackRateMicros: KNACK_MICROS,
      isPaidOut: true,
      payerId: supporter,
      listed: true,
      featureRank: n,
    })),
  );
  const account = userAccount(member._id);
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 365 * DAY_MS;
  const step = (364 * DAY_MS) / ENTRIES;
  let balance = 0;
  let nextMonth = new Date(Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth() + 1, 1));
  let batch: object[] = [];
  const flush = async () => {
    if (batch.length) await LedgerEntryModel.collection.insertMany(batch, { ordered: false });
    batch = [];
  };
  for (let n = 0; n < ENTRIES; n++) {
    const at = new Date(start + Math.floor(n * step));
    if (at >= nextMonth) {
      // The monthly payout of the whole balance in cents, as the payouts write it (a provider fee of 2%, at most $1).
      const amount = truncateToCents(balance);
      const fee = Math.min(truncateToCents(Math.ceil(amount / 50)), 1_000_000);
      batch.push({
        _id: `payout:${String(member._id)}:${nextMonth.toISOString().slice(0, 7)}`,
        kind: 'payout',
        at: nextMonth,
        actorId: member._id,
        contentId: null,
        legs: [
          { account, amountMicros: -amount },
          { account: 'external:payouts', amountMicros: amount - fee },
          { account: 'platform:fees', amountMicros: fee },
        ],
        method: null,
        amountMicros: amount,
        ref: null,
        accounts: [account, 'external:payouts', 'platform:fees'],
      });
      balance -= amount;
      nextMonth = new Date(Date.UTC(nextMonth.getUTCFullYear(), nextMonth.getUTCMonth() + 1, 1));
    }
    const piece = pieces[n % pieces.length]!;
    const viewer = new Types.ObjectId();
    const legs = knackLegs(KNACK_MICROS, String(member._id), String(supporter));
    balance += legs.find((leg) => leg.account === account)!.amountMicros;
    batch.push({
      _id: `knack:${String(piece._id)}:${String(viewer)}`,
      kind: 'knack',
      at,
      actorId: viewer,
      contentId: piece._id,
      legs,
      method: null,
      amountMicros: null,
      ref: null,
      accounts: legs.map((leg) => leg.account),
    });
    if (batch.length >= 2_000) await flush();
  }
  await flush();
  // The member's running balance, which the statement reads, built from the entries as the rebuild command does.
  await rebuildKeptState(ledgerBalancesState, { compare: false });
  return { member, from: new Date(start).toISOString().slice(0, 10), to: now.toISOString().slice(0, 10), balance };
}

/** The embedded FerretDB's RSS in MB (the process listening on the database's port), or null for another database. */
async function databaseRssMb(port: number | null): Promise<number | null> {
  if (!port) return null;
  try {
    const { stdout } = await run('ps', ['-eo', 'rss=,args=']);
    const row = stdout.split('\n').find((line) => line.includes('ferretdb') && line.includes(`:${port}`));
    return row ? Number(row.trim().split(/\s+/)[0]) / 1024 : null;
  } catch {
    return null;
  }
}

interface Filled {
  userId: string;
  from: string;
  to: string;
  balanceMicros: number;
  seconds: number;
}

/** Filler: writes the ledger into the server child's database and exits, so that the server's memory starts clean. */
async function fill() {
  await mongoose.connect(withDatabaseName(process.env.BENCH_FILL_URI!, process.env.BENCH_FILL_DB!));
  const started = performance.now();
  const { member, from, to, balance } = await fillLedger(new Date());
  const seconds = (performance.now() - started) / 1000;
  // The written ledger checked here, where reading the member's every entry grows no memory the server measures.
  const balanceMicros = await balanceOf(userAccount(member._id));
  if (balanceMicros !== balance) throw new Error(`the written ledger sums to ${balanceMicros}, expected ${balance}`);
  const filled: Filled = { userId: String(member._id), from, to, balanceMicros, seconds };
  await mongoose.disconnect();
  process.send!(filled, () => process.exit(0));
}

/** Runs the filler against the database this process is connected to. */
function fillFromAnotherProcess(uri: string): Promise<Filled> {
  return new Promise((resolve, reject) => {
    const filler = fork(__filename, ['--fill'], { env: { ...process.env, BENCH_FILL_URI: uri, BENCH_FILL_DB: mongoose.connection.name } });
    filler.once('message', (m) => resolve(m as Filled));
    filler.once('exit', (code) => (code ? reject(new Error(`the ledger filler exited with ${code}`)) : undefined));
  });
}

/** Child: the database, the ledger (written by a process of its own), the app; measures its own memory while the parent downloads. */
async function serve() {
  const child = await startBenchChild('statement');
  const port = child.config.mongodbUri ? null : mongoose.connection.port;
  const filled = await fillFromAnotherProcess(child.config.mongodbUri ?? `mongodb://${mongoose.connection.host}:${port}`);
  const { userId, from, to, balanceMicros } = filled;
  console.log(`  ${ENTRIES} entries written in ${filled.seconds.toFixed(0)} s`);
  const appUrl = await child.startApp();
  // A token signed for each download: one signed before a read of many minutes would have expired.
  const freshToken = () => signAccessToken(child.config.auth, { userId, tokenVersion: 0 });
  process.send!({ appUrl, userId, from, to, balanceMicros } satisfies Ready);

  let sampling: { before: number; peak: number; databasePeak: number | null; started: number; cpu: NodeJS.CpuUsage; timers: NodeJS.Timeout[] } | undefined;
  const startSampling = async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    const s = {
      before,
      peak: before,
      databasePeak: await databaseRssMb(port),
      started: performance.now(),
      cpu: process.cpuUsage(),
      timers: [] as NodeJS.Timeout[],
    };
    s.timers.push(setInterval(() => (s.peak = Math.max(s.peak, process.memoryUsage().rss)), 20));
    // FerretDB's memory, less often: `ps` is a process of its own.
    s.timers.push(
      setInterval(() => void databaseRssMb(port).then((mb) => (s.databasePeak = mb === null ? s.databasePeak : Math.max(s.databasePeak ?? 0, mb))), 500),
    );
    sampling = s;
  };
  const stopSampling = (): Measured => {
    const s = sampling!;
    s.timers.forEach(clearInterval);
    s.peak = Math.max(s.peak, process.memoryUsage().rss);
    const cpu = process.cpuUsage(s.cpu);
    return {
      seconds: (performance.now() - s.started) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      growthMb: (s.peak - s.before) / MB,
      peakMb: s.peak / MB,
      databasePeakMb: s.databasePeak,
    };
  };

  onMessage(async (message: Request) => {
    if (message.type === 'memory-start') {
      const token = freshToken();
      await startSampling();
      process.send!({ token });
    } else if (message.type === 'memory-stop') {
      process.send!(stopSampling());
    } else if (message.type === 'raw') {
      await startSampling();
      const { batches } = await openMemberEntries(userId, new Date(`${from}T00:00:00.000Z`), new Date());
      let count = 0;
      for await (const batch of batches) count += batch.length;
      const measured = stopSampling();
      process.send!({ ...measured, count });
    } else {
      await child.close();
      process.exit(0);
    }
  });
}

/** Downloads the statement, keeping only its byte count and its last line. */
function download(url: string, token: string): Promise<{ bytes: number; tail: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        let bytes = 0;
        let tail = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          bytes += Buffer.byteLength(chunk);
          tail = (tail + chunk).slice(-4_000);
        });
        res.on('end', () => resolve({ bytes, tail }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const line = (name: string, m: Measured, extra = '') =>
  console.log(
    `  ${name.padEnd(34)} ${m.seconds.toFixed(1).padStart(6)} s (CPU here ${m.cpuSeconds.toFixed(1)} s)   RSS +${m.growthMb.toFixed(1)} MB (peak ${m.peakMb.toFixed(0)} MB)` +
      `${m.databasePeakMb === null ? '' : `   FerretDB peak ${m.databasePeakMb.toFixed(0)} MB`}${extra}`,
  );

async function main() {
  console.log(`7. The earnings statement of a member with ${ENTRIES} ledger entries, downloaded whole`);
  const child = fork(__filename, ['--serve'], { execArgv: [...process.execArgv, '--expose-gc'] });
  const ask = <T>(message: Request) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(message);
    });
  let failed = false;
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const raw = await ask<Measured & { count: number }>({ type: 'raw' });
    line('bare cursor read (no lines, no HTTP)', raw, `   ${raw.count} entries`);
    for (const format of FORMATS) {
      const url = `${ready.appUrl}/api/v2/wallet/statement/${ready.userId}?format=${format}&from=${ready.from}&to=${ready.to}`;
      const { token } = await ask<{ token: string }>({ type: 'memory-start' });
      const { bytes, tail } = await download(url, token);
      const app = await ask<Measured>({ type: 'memory-stop' });
      // The last line's balance must be the member's balance.
      const last =
        format === 'csv' ? tail.trimEnd().split('\r\n').at(-1)!.split(',')[8]! : String(/"closingBalanceMicros":(-?\d+)/.exec(tail)?.[1] ?? 'missing');
      const expected =
        format === 'csv' ? `${Math.trunc(ready.balanceMicros / 1e6)}.${String(ready.balanceMicros % 1e6).padStart(6, '0')}` : String(ready.balanceMicros);
      const reconciled = last === expected;
      line(
        `Knack statement (${format.toUpperCase()})`,
        app,
        `   ${(bytes / MB).toFixed(0)} MB, ${(raw.seconds / app.seconds).toFixed(2)} of the bare read's speed`,
      );
      console.log(`    last balance ${last} ${reconciled ? '= the member’s balance' : `!= the member’s balance ${expected}`}; RSS growth goal < 50 MB`);
      if (!reconciled || app.growthMb >= 50) failed = true;
    }
  } finally {
    child.send({ type: 'stop' } satisfies Request);
  }
  if (failed) process.exit(1);
}

if (process.argv.includes('--serve')) void serve();
else if (process.argv.includes('--fill'))
  fill().catch((err) => {
    console.error(err);
    process.exit(1);
  });
else if (!runs) console.log('Statement: no part asked (BENCH_ONLY)');
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
