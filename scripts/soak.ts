/**
 * `npm run soak`: one server as `npm start` runs it (production settings, the jobs in process, the demo data),
 * under mixed traffic from simulated members for SOAK_MINUTES (default 10), with the database stopped and started
 * again halfway. It prints the requests served, p50 and p99 per kind, errors by status, the server's RSS at the
 * start and the end, and checks the money at the end.
 *
 * Goals (the exit code is 1 when one is missed):
 * - no 5xx but the 503s answered while the database was away (and until /readyz said ready again);
 * - the server's RSS grew less than 50 MB from the end of the warm-up to the end;
 * - the money holds: every ledger entry's legs sum to zero, each member's wallet balance is the sum of their
 *   legs, and each (member, piece) pair a simulated member knacked has exactly one knack entry, however often its
 *   request was retried across the outage.
 *
 * Each simulated member is a loop: pick a kind by weight, do it, think for a moment, again. Members are made
 * straight in the database (SOAK_MEMBERS, default 3,000; each knacks at most 9 pieces, the count that needs no
 * emailed code) and sign their tokens with the server's secret; a few sign in with the demo password to keep that
 * path in the mix. Every member sends its own X-Forwarded-For address, as members behind a proxy would, so the
 * per-address limits see many clients. A request that fails for the outage (503 or no answer) is retried by
 * the member after Retry-After, as the app's own client does.
 *
 * Settings: SOAK_MINUTES, SOAK_USERS (simulated members at once, default 24), SOAK_MEMBERS, SOAK_OUTAGE_SECONDS
 * (how long the database is away, default 15), SOAK_REPORT (a path to write the figures to as JSON), MONGODB_URI
 * is not used: the soak owns its database (FerretDB, or mongod when on PATH) so that it can stop and start it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import sharp from 'sharp';
import { loadConfig } from '../server/config';
import { DEMO_PASSWORD } from '../server/db/demo';
import { freePort, startEmbeddedDatabase, type EmbeddedDatabase } from '../server/db/embedded';
import { signAccessToken } from '../server/lib/access-token';
import { PROJECT_ROOT } from '../server/lib/paths';
import { ContentModel } from '../server/modules/contents';
import { KNACKS_BEFORE_CODE } from '../server/modules/knacks/testing';
import { LedgerEntryModel, type LedgerEntryDoc } from '../server/modules/ledger';
import { UserModel } from '../server/modules/users';
import { startServerProcess } from '../tests/helpers/server-process';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const USERS = Number(process.env.SOAK_USERS ?? 24);
const MEMBERS = Number(process.env.SOAK_MEMBERS ?? 3000);
const OUTAGE_S = Number(process.env.SOAK_OUTAGE_SECONDS ?? 15);
const WARM_UP_S = 20;
const RSS_GOAL_MB = 50;
const JWT_SECRET = 'soak-secret-soak-secret-soak-secret-soak!';
const DB_NAME = 'knack_soak';

/** What a simulated member does, and how often (weights). */
const KINDS = { browse: 40, search: 15, knack: 20, comment: 10, follow: 10, upload: 4, signin: 1 } as const;
type Kind = keyof typeof KINDS;

interface Member {
  id: string;
  username: string;
  token: string;
  address: string;
  knacksLeft: number;
}

interface Piece {
  id: string;
  ownerId: string;
  isSong: boolean;
}

interface Outcome {
  name: string;
  status: number;
  ms: number;
  at: number;
  /** The message of an answer of 400 and over. */
  message?: string;
}

const outcomes: Outcome[] = [];
const knackedPairs = new Set<string>();
const attemptedPairs = new Set<string>();
let outage: { from: number; to: number } | undefined;
let stopping = false;
/** Whether the server failed to say it was ready again after the outage. */
let neverReady = false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function pickKind(): Kind {
  const total = Object.values(KINDS).reduce((sum, weight) => sum + weight, 0);
  let roll = Math.random() * total;
  for (const [kind, weight] of Object.entries(KINDS) as [Kind, number][]) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return 'browse';
}

/** The server's resident memory in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * One request, timed and recorded under `name`. A 503 or a request that got no answer is retried after
 * Retry-After (or a second) until the soak stops, as the app's client does; the others are returned as they are.
 */
async function call<Body = unknown>(
  base: string,
  name: string,
  member: Member | null,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Body }> {
  for (;;) {
    const started = Date.now();
    const headers = new Headers(init.headers);
    if (member) {
      headers.set('Authorization', `Bearer ${member.token}`);
      headers.set('X-Forwarded-For', member.address);
    }
    if (typeof init.body === 'string') headers.set('Content-Type', 'application/json');
    let status = 0;
    let body: unknown = null;
    let retryAfter = 1;
    try {
      const res = await fetch(`${base}/api/v2${path}`, { ...init, headers, signal: AbortSignal.timeout(30_000) });
      status = res.status;
      retryAfter = Number(res.headers.get('retry-after') ?? 1) || 1;
      const text = await res.text();
      body = text && res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as unknown) : text;
    } catch {
      status = 0; // no answer: the connection was refused, reset or timed out
    }
    const message = status >= 400 ? (body as { message?: string } | null)?.message : undefined;
    outcomes.push({ name, status, ms: Date.now() - started, at: Date.now(), ...(message ? { message } : {}) });
    if ((status === 503 || status === 0) && !stopping) {
      await sleep(retryAfter * 1000);
      continue;
    }
    return { status, body: body as Body };
  }
}

const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

async function uploadBody(): Promise<FormData> {
  const [r, g, b] = [0, 1, 2].map(() => Math.floor(Math.random() * 256));
  const png = await sharp({ create: { width: 640, height: 640, channels: 3, background: { r: r!, g: g!, b: b! } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'cover.png');
  return form;
}

/** Plays a song for the half that counts, or views a picture, and knacks it; remembers the pair and whether it was thanked. */
async function knack(base: string, member: Member, piece: Piece): Promise<void> {
  const pair = `${member.id}:${piece.id}`;
  attemptedPairs.add(pair);
  let playId: string | undefined;
  if (piece.isSong) {
    const play = await call<{ playId: string; minSeconds: number }>(base, 'play', member, '/knack/play', json({ contentId: piece.id }));
    if (play.status !== 201) return;
    playId = play.body.playId;
    await sleep(play.body.minSeconds * 1000 + 100);
  }
  const added = await call(base, 'knack', member, '/knack/add', json({ contentId: piece.id, userId: member.id, ...(playId ? { playId } : {}) }));
  if (added.status === 200) knackedPairs.add(pair);
}

const WORDS = ['sky', 'harbour', 'night', 'blue', 'river', 'light', 'city', 'dream', 'gold', 'rain'];

async function act(base: string, kind: Kind, member: Member, members: Member[], pieces: Piece[]): Promise<void> {
  const piece = pick(pieces);
  switch (kind) {
    case 'browse':
      await call(base, 'feed', member, '/content/get-all?limit=20');
      await call(base, 'featured', null, '/content/get-featured');
      await call(base, 'detail', member, `/content/detail/${piece.id}/for-user/${member.id}`);
      await call(base, 'unread counts', member, `/message/counts/${member.id}`);
      if (Math.random() < 0.3) await call(base, 'wallet', member, `/wallet/summary/${member.id}`);
      return;
    case 'search':
      await call(base, 'search', member, `/content/search-contents?q=${pick(WORDS)}`);
      return;
    case 'knack': {
      const candidates = pieces.filter((p) => p.ownerId !== member.id && !attemptedPairs.has(`${member.id}:${p.id}`));
      if (!candidates.length || member.knacksLeft <= 0) return;
      member.knacksLeft -= 1;
      await knack(base, member, pick(candidates));
      return;
    }
    case 'comment':
      await call(
        base,
        'comment',
        member,
        '/comment/add',
        json({ comment: `Lovely ${pick(WORDS)}`, userId: member.id, ownerId: piece.ownerId, contentId: piece.id }),
      );
      return;
    case 'follow':
      await call(
        base,
        'follow',
        member,
        '/follow/make-following',
        json({ subjectorId: pick(members.filter((m) => m !== member)).id, myuserId: member.id, set: Math.random() < 0.7 }),
      );
      return;
    case 'upload': {
      const photo = await call<{ path: string }>(base, 'upload photo', member, '/content/upload-photo', { method: 'POST', body: await uploadBody() });
      if (photo.status !== 201) return;
      const title = `Soak ${pick(WORDS)} ${Math.floor(Math.random() * 1e6)}`;
      const saved = await call<{ content: { id: string } }>(
        base,
        'save piece',
        member,
        '/content/save',
        json({ title, description: `About ${title}`, tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: photo.body.path }),
      );
      if (saved.status === 201) pieces.push({ id: saved.body.content.id, ownerId: member.id, isSong: false });
      return;
    }
    case 'signin':
      await call(base, 'sign in', null, '/auth/signin', {
        ...json({ email: pick(DEMO_EMAILS), password: DEMO_PASSWORD }),
        headers: { 'X-Forwarded-For': member.address },
      });
      return;
  }
}

let DEMO_EMAILS: string[] = [];

async function simulatedMember(base: string, members: Member[], pieces: Piece[], until: number): Promise<void> {
  while (Date.now() < until) {
    await act(base, pickKind(), pick(members), members, pieces);
    await sleep(100 + Math.random() * 400);
  }
}

async function makeMembers(): Promise<Member[]> {
  const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET, PAYMENTS_PROVIDER: 'sandbox' });
  const docs = await UserModel.insertMany(
    Array.from({ length: MEMBERS }, (_, i) => ({
      email: `soak${i}@soak.example`,
      username: `soak_${i}`,
      fullName: `Soak Member ${i}`,
      isActive: true,
    })),
  );
  return docs.map((doc, i) => ({
    id: String(doc._id),
    username: doc.username,
    token: signAccessToken(config.auth, { userId: String(doc._id), tokenVersion: 0 }),
    address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    knacksLeft: KNACKS_BEFORE_CODE,
  }));
}

/** Stops the database for OUTAGE_S seconds and starts it again on the same port and data. */
async function restartDatabase(db: EmbeddedDatabase, start: () => Promise<EmbeddedDatabase>, base: string): Promise<EmbeddedDatabase> {
  const from = Date.now();
  outage = { from, to: Number.POSITIVE_INFINITY };
  await db.stop();
  console.log(`database stopped at ${new Date(from).toISOString()}`);
  await sleep(OUTAGE_S * 1000);
  const again = await start();
  console.log(`database started again after ${((Date.now() - from) / 1000).toFixed(1)} s`);
  // The outage ends when the server says it is ready again, by itself (a server that does not within two minutes
  // misses the goal: it would need a restart).
  const giveUpAt = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) break;
    if (Date.now() > giveUpAt) {
      console.log('not ready two minutes after the database came back');
      neverReady = true;
      break;
    }
    await sleep(250);
  }
  outage.to = Date.now();
  console.log(`ready again ${((outage.to - from) / 1000).toFixed(1)} s after the stop`);
  return again;
}

interface MoneyCheck {
  entries: number;
  unbalancedEntries: number;
  knackEntriesOfSoak: number;
  pairsAttempted: number;
  pairsThanked: number;
  pairsWithoutEntry: number;
  entriesNeverAsked: number;
  walletMismatches: number;
}

/** The money invariants, read from the database and through the wallet the members see. */
async function checkMoney(base: string, members: Member[]): Promise<MoneyCheck> {
  const entries = await LedgerEntryModel.find({}, { legs: 1, kind: 1, actorId: 1, contentId: 1 }).lean<LedgerEntryDoc[]>();
  const unbalancedEntries = entries.filter((entry) => entry.legs.reduce((sum, leg) => sum + leg.amountMicros, 0) !== 0).length;
  const balances = new Map<string, number>();
  for (const entry of entries) for (const leg of entry.legs) balances.set(leg.account, (balances.get(leg.account) ?? 0) + leg.amountMicros);
  const soakIds = new Set(members.map((m) => m.id));
  const soakKnacks = entries.filter((entry) => entry.kind === 'knack' && soakIds.has(String(entry.actorId)));
  const keys = new Set(soakKnacks.map((entry) => `${String(entry.actorId)}:${String(entry.contentId)}`));
  let walletMismatches = 0;
  const sample = members.filter((m) => balances.has(`user:${m.id}`)).slice(0, 200);
  for (const member of sample) {
    const wallet = await call<{ balanceMicros?: number } | null>(base, 'wallet (check)', member, `/wallet/summary/${member.id}`);
    if (wallet.body?.balanceMicros !== balances.get(`user:${member.id}`)) walletMismatches += 1;
  }
  return {
    entries: entries.length,
    unbalancedEntries,
    knackEntriesOfSoak: soakKnacks.length,
    pairsAttempted: attemptedPairs.size,
    pairsThanked: knackedPairs.size,
    pairsWithoutEntry: [...knackedPairs].filter((pair) => !keys.has(pair)).length,
    entriesNeverAsked: [...keys].filter((pair) => !attemptedPairs.has(pair)).length,
    walletMismatches,
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'knack-soak-'));
  const port = await freePort();
  const startDatabase = () => startEmbeddedDatabase({ dataDir, binDir: path.join(PROJECT_ROOT, 'data', 'bin'), port });
  let db = await startDatabase();
  console.log(`soak: ${MINUTES} min, ${USERS} members at once of ${MEMBERS}, the database (${db.kind}) away for ${OUTAGE_S} s halfway`);
  const server = await startServerProcess(
    {
      NODE_ENV: 'production',
      JWT_SECRET,
      PAYMENTS_PROVIDER: 'sandbox',
      MONGODB_URI: db.uri,
      DB_NAME,
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      JOBS_IN_PROCESS: 'true',
      TRUST_PROXY: 'loopback',
      PUBLIC_URL: 'http://127.0.0.1',
    },
    { timeoutMs: 600_000 },
  );
  try {
    await mongoose.connect(db.uri, { dbName: DB_NAME });
    const members = await makeMembers();
    DEMO_EMAILS = (await UserModel.find({ email: /@demo\.knack\.example$/ }, { email: 1 }).lean()).map((u) => u.email);
    const pieces: Piece[] = (await ContentModel.find({}, { ownerId: 1, type: 1 }).lean()).map((p) => ({
      id: String(p._id),
      ownerId: String(p.ownerId),
      isSong: p.type === 'music',
    }));
    await mongoose.disconnect();
    console.log(`${members.length} members, ${pieces.length} pieces; warming up for ${WARM_UP_S} s`);

    const runMs = MINUTES * 60_000;
    const started = Date.now();
    const until = started + runMs;
    const load = Promise.all(Array.from({ length: USERS }, () => simulatedMember(server.url, members, pieces, until)));
    await sleep(WARM_UP_S * 1000);
    const rssStart = rssMb(server.pid);
    await sleep(Math.max(0, started + runMs / 2 - Date.now()));
    db = await restartDatabase(db, startDatabase, server.url);
    await load;
    const rssEnd = rssMb(server.pid);
    // A member whose knack got no thanks (its answer lost in the outage, or the soak ended mid-play) tries once more.
    const unthanked = [...attemptedPairs].filter((pair) => !knackedPairs.has(pair));
    for (const pair of unthanked) {
      const [memberId, pieceId] = pair.split(':');
      await knack(
        server.url,
        members.find((m) => m.id === memberId)!,
        pieces.find((p) => p.id === pieceId)!,
      );
    }
    stopping = true;

    await mongoose.connect(db.uri, { dbName: DB_NAME });
    const money = await checkMoney(server.url, members);
    await mongoose.disconnect();
    report({ started, rssStart, rssEnd, money });
  } finally {
    await server.stop();
    await db.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report({ started, rssStart, rssEnd, money }: { started: number; rssStart: number; rssEnd: number; money: MoneyCheck }): void {
  const inOutage = (o: Outcome) => outage !== undefined && o.at >= outage.from && o.at <= outage.to;
  const byKind = new Map<string, Outcome[]>();
  for (const o of outcomes) byKind.set(o.name, [...(byKind.get(o.name) ?? []), o]);
  const rows = [...byKind.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([name, list]) => {
      const served = list.filter((o) => o.status > 0 && o.status < 500);
      const times = served.map((o) => o.ms).sort((a, b) => a - b);
      return { kind: name, requests: list.length, served: served.length, p50_ms: percentile(times, 50), p99_ms: percentile(times, 99) };
    });
  const statuses: Record<string, number> = {};
  for (const o of outcomes) {
    if (o.status !== 0 && o.status < 400) continue;
    const key = `${o.status || 'no answer'} ${o.name}${o.message ? `: ${o.message}` : ''}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  // While the database is away the only failure allowed is a 503 (with Retry-After): no 500, no dropped connection.
  const stray5xx = outcomes.filter((o) => (o.status >= 500 || o.status === 0) && !(o.status === 503 && inOutage(o)));
  const outage503 = outcomes.filter((o) => o.status === 503 && inOutage(o)).length;
  const seconds = (Date.now() - started) / 1000;
  console.log(`\n${outcomes.length} requests in ${seconds.toFixed(0)} s (${(outcomes.length / seconds).toFixed(1)}/s)`);
  console.table(rows);
  console.log('errors by status and kind:', statuses);
  console.log(`503s during the outage: ${outage503}; any other 5xx or no answer: ${stray5xx.length}`);
  console.log(`RSS: ${rssStart.toFixed(1)} MB after the warm-up, ${rssEnd.toFixed(1)} MB at the end (${(rssEnd - rssStart).toFixed(1)} MB)`);
  console.log('money:', money);
  const goals = {
    'ready again by itself after the outage': !neverReady,
    'no 5xx but the outage’s 503s': stray5xx.length === 0,
    [`RSS grew under ${RSS_GOAL_MB} MB`]: rssEnd - rssStart < RSS_GOAL_MB,
    'every entry balanced': money.unbalancedEntries === 0,
    'every wallet equals its ledger': money.walletMismatches === 0,
    'every thanked knack has its entry': money.pairsWithoutEntry === 0,
    'every knack asked for was thanked in the end': money.pairsThanked === money.pairsAttempted,
    'no knack entry that was never asked for': money.entriesNeverAsked === 0,
  };
  for (const [goal, met] of Object.entries(goals)) console.log(`${met ? 'met ' : 'MISSED'} ${goal}`);
  if (process.env.SOAK_REPORT) {
    writeFileSync(
      process.env.SOAK_REPORT,
      JSON.stringify({ seconds, rows, statuses, outage503, stray5xx: stray5xx.slice(0, 20), rssStart, rssEnd, money, goals }, null, 2),
    );
  }
  if (Object.values(goals).some((met) => !met)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
