/**
 * `npm run bench` (part 3): the knack write path, `POST /api/v2/knack/add`, under load with duplicates,
 * against raw inserts into the same database in the same run (goal: >= 25% of their rate, p99 < 250 ms),
 * then the totals checked exactly.
 *
 * The raw inserts are a tiny HTTP endpoint in the same child process as the app: each request inserts one
 * ledger-sized document (a knack entry's fields, three legs) with a fresh `_id` through the same mongoose
 * connection into a collection of its own with no secondary index, and answers 201. Both loads then go through
 * the same autocannon, HTTP stack, process, connection pool and database at the same 32 connections, so the
 * ratio is what the knack path's own work costs against the one insert it cannot do without. (A driver loop
 * in this process would leave out HTTP and the child's event loop, and flatter the inserts.) A node:http hello
 * is measured too, as the ceiling of the HTTP stack alone.
 *
 * BENCH_KNACK_MEMBERS members (default 600) each knack 9 image pieces of 60 (paid out by their owner, by a
 * supporter, or not paid out; in tags whose knacks are worth $0.05, $0.99 and $0.12), every (member, piece) pair asked
 * BENCH_KNACK_DUPLICATES times (default 3) back to back, so that its copies are in flight at once on
 * different connections. Nine pieces per member keeps every member at or under the 9 recent knacks that
 * need no emailed code, so the code is never asked and no counter needs clearing.
 * After the timed run, every pair that was sent is sent once more (a retry, and the sure end of a request the
 * run cut off), then:
 * ledger knack entries = the distinct pairs sent, no pair thanked twice, every balance = what the pairs
 * imply (to the micro-dollar), reactedCount per piece = its distinct members.
 * The servers run in a child process and the load in this one. Uses MONGODB_URI, or a throw-away embedded
 * database. BENCH_ONLY=knacks runs only this part; BENCH_SECONDS (default 10) the length of each run.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { listen, onMessage, startBenchChild } from './bench-child';
import mongoose, { Types } from 'mongoose';
import { loadConfig } from '../server/config';
import { signAccessToken } from '../server/lib/access-token';
import { ContentModel } from '../server/modules/contents';
import { balanceOf, knackLegs, LedgerEntryModel, PLATFORM_KNACKS, userAccount } from '../server/modules/ledger';
import { KNACKS_BEFORE_CODE } from '../server/modules/knacks/testing';
import { knackPriceMicros } from '../server/lib/money';
import { TagModel, type TagDoc } from '../server/modules/tags';
import { UserModel } from '../server/modules/users';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const MEMBERS = Number(process.env.BENCH_KNACK_MEMBERS ?? 600);
const DUPLICATES = Number(process.env.BENCH_KNACK_DUPLICATES ?? 3);
const PIECES = 60;
const OWNERS = 12;
/** At most 9 pieces per member: the 10th knack in 24 hours would need the emailed code. */
const PIECES_PER_MEMBER = KNACKS_BEFORE_CODE;
/**
 * The pieces' tags, in turn: a knack credits its tag's price in force, so three tags give three knack values ($0.05,
 * $0.99, and $0.12 from Cars' price set here), one with a supporter's 10% in whole cents and none of them equal.
 */
const TAGS: { main: string; sub: string; type: 'photos' | 'art'; priceMicros?: number }[] = [
  { main: 'Photos', sub: 'Travel', type: 'photos' },
  { main: 'Art', sub: 'Digital Art', type: 'art' },
  { main: 'Photos', sub: 'Cars', type: 'photos', priceMicros: 1_500_000 },
];
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const runs = !ONLY || ONLY.includes('knacks');
const KNACK_PATH = '/api/v2/knack/add';
const THANKS = 'Thank you for being apart of our Community.';

interface Piece {
  id: string;
  ownerId: string;
  payerId: string | null;
  valueMicros: number;
}

interface Ready {
  appUrl: string;
  rawUrl: string;
  insertUrl: string;
  members: { id: string; token: string }[];
  pieces: Piece[];
}

/** What the database holds after the run. */
interface Totals {
  entryIds: string[];
  balances: Record<string, number>;
  reactedCounts: Record<string, number>;
}

/** Creators, members and image pieces written straight to the database (no uploads needed for a knack). */
async function fillWorld(config: ReturnType<typeof loadConfig>): Promise<Pick<Ready, 'members' | 'pieces'>> {
  const people = await UserModel.insertMany(
    Array.from({ length: OWNERS + MEMBERS }, (_, i) => ({
      email: `${i < OWNERS ? 'creator' : 'member'}${i}@bench.example`,
      username: `${i < OWNERS ? 'creator' : 'member'}_${i}`,
      fullName: `Bench ${i}`,
      isActive: true,
    })),
  );
  const owners = people.slice(0, OWNERS);
  const members = people.slice(OWNERS);
  for (const tag of TAGS) if (tag.priceMicros) await TagModel.updateOne({ label: tag.sub }, { $set: { priceMicros: tag.priceMicros } });
  const knackValueOf = new Map((await TagModel.find().lean<TagDoc[]>()).map((tag) => [tag.label, knackPriceMicros(tag.priceMicros)] as const));
  const docs = Array.from({ length: PIECES }, (_, i) => {
    const owner = owners[i % OWNERS]!;
    // A third paid out by the owner, a third by a supporter (a member, whose 10% lands on a knacker's balance too), a third not paid out.
    const payer = i % 3 === 0 ? owner : i % 3 === 1 ? members[(i * 11) % MEMBERS]! : null;
    const key = `images/2026/01/${String(i).padStart(24, '0')}`;
    return {
      ownerId: owner._id,
      ownerUsername: owner.username,
      ownerName: owner.fullName,
      payerId: payer?._id ?? null,
      isPaidOut: Boolean(payer),
      title: `Bench piece ${i}`,
      slug: `bench-piece-${i}`,
      titleWords: ['bench', 'piece', String(i)],
      description: 'A bench piece',
      tags: [{ name: TAGS[i % TAGS.length]!.main }],
      subTag: TAGS[i % TAGS.length]!.sub,
      type: TAGS[i % TAGS.length]!.type,
      photoUploadId: new Types.ObjectId(),
      media: { photoKey: `${key}.jpg`, thumbKeys: { thumb: `${key}-thumb.webp` }, fileSize: 1000, fileType: 'image/jpeg' },
      knackRateMicros: knackValueOf.get(TAGS[i % TAGS.length]!.sub)!,
      listed: true,
      featureRank: Date.now() - i,
    };
  });
  const pieces = await ContentModel.insertMany(docs);
  return {
    members: members.map((m) => ({ id: String(m._id), token: signAccessToken(config.auth, { userId: String(m._id), tokenVersion: 0 }) })),
    pieces: pieces.map((p) => ({
      id: String(p._id),
      ownerId: String(p.ownerId),
      payerId: p.payerId ? String(p.payerId) : null,
      valueMicros: p.isPaidOut ? knackValueOf.get(p.subTag)! : 0,
    })),
  };
}

/** Child: database, members and pieces, the app and the hello server; answers the totals when asked. */
async function serve() {
  const child = await startBenchChild('knacks');
  const world = await fillWorld(child.config);
  const appUrl = await child.startApp();
  const hello = Buffer.from('{"hello":"world"}');
  const raw = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': hello.length });
    res.end(hello);
  });
  const rawUrl = await listen(raw);
  // One ledger-sized document per request, into the same database (see the top of this file).
  const rawInserts = mongoose.connection.collection<{ _id: string }>('bench_raw_inserts');
  const [owner, payer] = [new Types.ObjectId(), new Types.ObjectId()];
  const inserts = http.createServer((req, res) => {
    req.resume();
    const doc = {
      _id: `knack:${new Types.ObjectId()}:${randomBytes(12).toString('hex')}`,
      kind: 'knack',
      at: new Date(),
      actorId: new Types.ObjectId(),
      contentId: new Types.ObjectId(),
      legs: [
        { account: PLATFORM_KNACKS, amountMicros: -123_457 },
        { account: userAccount(owner), amountMicros: 111_112 },
        { account: userAccount(payer), amountMicros: 12_345 },
      ],
      accounts: [PLATFORM_KNACKS, userAccount(owner), userAccount(payer)],
      method: null,
      amountMicros: null,
      ref: null,
    };
    rawInserts.insertOne(doc).then(
      () => {
        res.writeHead(201, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end('{"ok":true}');
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  const insertUrl = await listen(inserts);
  process.send!({ appUrl, rawUrl, insertUrl, ...world } satisfies Ready);

  onMessage(async (message: 'totals' | 'stop') => {
    if (message === 'totals') {
      const entries = await LedgerEntryModel.find({ kind: 'knack' }, { _id: 1 }).lean();
      const accounts = [PLATFORM_KNACKS, ...(await UserModel.find({}, { _id: 1 }).lean()).map((u) => userAccount(u._id))];
      const balances: Record<string, number> = {};
      // Each through the ledger's own balanceOf, as the wallet reads it.
      for (const account of accounts) balances[account] = await balanceOf(account);
      const reactedCounts = Object.fromEntries((await ContentModel.find({}, { reactedCount: 1 }).lean()).map((c) => [String(c._id), c.reactedCount]));
      process.send!({ entryIds: entries.map((e) => String(e._id)), balances, reactedCounts } satisfies Totals);
      return;
    }
    raw.close();
    inserts.close();
    await child.close();
    process.exit(0);
  });
}

/**
 * Member m's 9 pieces: distinct (a step of 7 over 60 pieces), spread so that every piece gets many members.
 * Sent round by round (every member's first piece, then every member's second...), as traffic comes: many
 * members at once, each at a person's pace. Sent member by member, the 32 connections would all carry one
 * member's knacks, which that member's lock takes one turn at a time.
 */
function pairsOf(ready: Ready): [number, number][] {
  const pairs: [number, number][] = [];
  for (let j = 0; j < PIECES_PER_MEMBER; j += 1) {
    for (let m = 0; m < ready.members.length; m += 1) pairs.push([m, (m + j * 7) % PIECES]);
  }
  return pairs;
}

const keyOf = (ready: Ready, [m, p]: [number, number]) => `knack:${ready.pieces[p]!.id}:${ready.members[m]!.id}`;

function report(name: string, result: autocannon.Result) {
  console.log(`  ${name.padEnd(34)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms`);
}

/** The knack load: each pair DUPLICATES times in a row, so its copies run at once on different connections. */
async function knackLoad(ready: Ready, pairs: [number, number][]) {
  let next = 0;
  const sent = new Set<number>();
  const thanked = new Map<number, number>();
  let wrongAnswers = 0;
  const result = await autocannon({
    url: ready.appUrl,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [
      {
        method: 'POST',
        path: KNACK_PATH,
        setupRequest: (request, context: { pair?: number }) => {
          const pair = Math.floor(next / DUPLICATES) % pairs.length;
          next += 1;
          context.pair = pair;
          sent.add(pair);
          const [m, p] = pairs[pair]!;
          const member = ready.members[m]!;
          return {
            ...request,
            headers: { ...request.headers, 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
            body: JSON.stringify({ contentId: ready.pieces[p]!.id, userId: member.id }),
          };
        },
        onResponse: (status, body, context: { pair?: number }) => {
          if (status !== 200) wrongAnswers += 1;
          else if (body.includes(THANKS)) thanked.set(context.pair!, (thanked.get(context.pair!) ?? 0) + 1);
        },
      },
    ],
  });
  return { result, sent, thanked, wrongAnswers, requested: next };
}

/** Sends each pair once more (a retry after the run), `width` at a time: nothing may change. */
async function retryEach(ready: Ready, pairs: [number, number][], indexes: number[], width = 16) {
  let thanks = 0;
  let failures = 0;
  for (let start = 0; start < indexes.length; start += width) {
    const answers = await Promise.all(
      indexes.slice(start, start + width).map(async (index) => {
        const [m, p] = pairs[index]!;
        const member = ready.members[m]!;
        const res = await fetch(ready.appUrl + KNACK_PATH, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
          body: JSON.stringify({ contentId: ready.pieces[p]!.id, userId: member.id }),
        });
        return { status: res.status, body: await res.text() };
      }),
    );
    for (const { status, body } of answers) {
      if (status !== 200) failures += 1;
      else if (body.includes(THANKS)) thanks += 1;
    }
  }
  return { thanks, failures };
}

/** What the pairs must have made: balances from the same split rule (90/10, rounded down for the payer) and reactions. */
function expectedTotals(ready: Ready, pairs: [number, number][], indexes: number[]) {
  const balances = new Map<string, number>();
  const reacted = new Map<string, number>();
  const add = (account: string, micros: number) => balances.set(account, (balances.get(account) ?? 0) + micros);
  for (const index of indexes) {
    const piece = ready.pieces[pairs[index]![1]]!;
    for (const leg of knackLegs(piece.valueMicros, piece.ownerId, piece.payerId)) add(leg.account, leg.amountMicros);
    reacted.set(piece.id, (reacted.get(piece.id) ?? 0) + 1);
  }
  return { balances, reacted, entryIds: new Set(indexes.map((index) => keyOf(ready, pairs[index]!))) };
}

/** The totals once two reads a second apart agree (at most 30 s). */
async function settled(read: () => Promise<Totals>): Promise<Totals> {
  const digest = (t: Totals) => JSON.stringify([t.entryIds.length, t.reactedCounts, t.balances]);
  let last = await read();
  for (let waited = 0; waited < 30; waited += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await read();
    if (digest(now) === digest(last)) return now;
    last = now;
  }
  return last;
}

function check(name: string, ok: boolean, detail: string): boolean {
  console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
  return ok;
}

async function main() {
  const child = fork(__filename, ['--serve']);
  const ask = <T>(message: string) =>
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
    const pairs = pairsOf(ready);
    console.log(
      `Knack write path: ${ready.members.length} members x ${PIECES_PER_MEMBER} of ${PIECES} image pieces = ${pairs.length} pairs, each sent ${DUPLICATES} times in a row; ${CONNECTIONS} connections, ${DURATION_S} s per run`,
    );
    const hello = await autocannon({ url: `${ready.rawUrl}/hello`, connections: CONNECTIONS, duration: DURATION_S });
    report('raw node:http hello', hello);
    const inserts = await autocannon({ url: ready.insertUrl, method: 'POST', connections: CONNECTIONS, duration: DURATION_S });
    report('raw insert (one ledger-sized doc)', inserts);
    const load = await knackLoad(ready, pairs);
    report('POST /knack/add (with duplicates)', load.result);
    const ratio = load.result.requests.average / inserts.requests.average;
    const p99 = load.result.latency.p99;
    const met = ratio >= 0.25 && p99 < 250;
    const sentPairs = [...load.sent].sort((a, b) => a - b);
    console.log(
      `  ${load.requested} knacks sent over ${sentPairs.length} distinct pairs${load.requested > pairs.length * DUPLICATES ? ' (the list wrapped: later ones are all duplicates)' : ''}; ` +
        `${inserts.non2xx + inserts.errors} raw inserts failed`,
    );
    console.log(
      `  knack/s ${load.result.requests.average.toFixed(0)}, raw inserts/s ${inserts.requests.average.toFixed(0)}, ratio knack/insert ${ratio.toFixed(3)}; ` +
        `p50 ${load.result.latency.p50} / ${inserts.latency.p50} ms, p99 ${p99} / ${inserts.latency.p99} ms ` +
        `(goal: ratio >= 0.25 and knack p99 < 250 ms) ${met ? 'MET' : 'NOT MET'}`,
    );

    // Requests the run cut off may still be running on the server: let it go quiet before and after the retry.
    await settled(() => ask<Totals>('totals'));
    const retry = await retryEach(ready, pairs, sentPairs);
    const totals = await settled(() => ask<Totals>('totals'));
    const expected = expectedTotals(ready, pairs, sentPairs);
    console.log('Checks after the run (every sent pair retried once more first):');
    const okAnswers = check(
      'every answer 200',
      load.result.non2xx === 0 && load.result.errors === 0 && load.wrongAnswers === 0 && retry.failures === 0,
      `${load.result.non2xx} non-2xx, ${load.result.errors} errors in the run, ${retry.failures} failed retries`,
    );
    const unexpected = totals.entryIds.filter((id) => !expected.entryIds.has(id));
    const okEntries = check(
      'ledger entries = distinct pairs',
      totals.entryIds.length === expected.entryIds.size && unexpected.length === 0,
      `${totals.entryIds.length} knack entries for ${expected.entryIds.size} distinct pairs sent (${unexpected.length} not among them)`,
    );
    const twice = [...load.thanked.values()].filter((n) => n > 1).length;
    const thanksTotal = [...load.thanked.values()].reduce((a, b) => a + b, 0) + retry.thanks;
    const okOnce = check(
      'one first-time answer per pair at most',
      twice === 0 && thanksTotal <= expected.entryIds.size,
      `${thanksTotal} 'thank you' answers, ${twice} pairs thanked twice, ${retry.thanks} first-time answers in the retry (a cut-off response)`,
    );
    const wrongBalances = Object.entries(totals.balances).filter(([account, micros]) => micros !== (expected.balances.get(account) ?? 0));
    const paid = -(expected.balances.get(PLATFORM_KNACKS) ?? 0);
    const okBalances = check(
      'every balance = the sum its pairs imply',
      wrongBalances.length === 0,
      `${Object.keys(totals.balances).length} accounts, ${wrongBalances.length} off${wrongBalances.length ? ` (e.g. ${wrongBalances[0]![0]}: ${wrongBalances[0]![1]} vs ${expected.balances.get(wrongBalances[0]![0]) ?? 0})` : ''}; $${(paid / 1e6).toFixed(6)} credited in all`,
    );
    const wrongReacted = ready.pieces.filter((piece) => totals.reactedCounts[piece.id] !== (expected.reacted.get(piece.id) ?? 0));
    const offBy = wrongReacted.map((piece) => `${totals.reactedCounts[piece.id]} for ${expected.reacted.get(piece.id) ?? 0}`).slice(0, 5);
    const okReacted = check(
      'reactedCount per piece = its distinct members',
      wrongReacted.length === 0,
      `${ready.pieces.length} pieces, ${wrongReacted.length} off${offBy.length ? ` (${offBy.join(', ')})` : ''}`,
    );
    failed = !(okAnswers && okEntries && okOnce && okBalances && okReacted);
    console.log(`  ${failed ? 'FAIL' : 'PASS'}: the knack totals ${failed ? 'do not match' : 'match exactly'}`);
  } finally {
    child.send('stop');
  }
  if (failed) process.exitCode = 1;
}

if (process.argv.includes('--serve')) void serve();
else if (!runs) console.log('Knacks: no part asked (BENCH_ONLY)');
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
