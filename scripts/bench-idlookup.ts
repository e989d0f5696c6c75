/**
 * `npm run bench` (part 4): `findOne` by `_id` at 1,000 and at 40,000 documents, in one run (goal: the
 * larger costs under 1.5 times the smaller). A find by `_id` is what every hot path does on the embedded
 * database, so it must not grow with the collection: a FerretDB whose `_id` lookups miss the index reads the
 * whole table each time (18 ms at 1,000 documents, 365 ms at 40,000).
 *
 * Two collections of ledger-like entries (string ids `knack:{contentId}:{userId}`, the ledger's secondary
 * indexes), one of 1,000 and one of 40,000; then BENCH_LOOKUPS (default 2,000) lookups of a random existing
 * `_id` in each, one at a time and taking turns, so that whatever else the machine does weighs on both alike.
 * Prints median and p99 of each and the ratio of the medians; PASS or FAIL, and exits non-zero on FAIL.
 * Uses MONGODB_URI, or a throw-away embedded database. BENCH_ONLY=idlookup runs only this part.
 */
import { Types } from 'mongoose';
import mongoose from 'mongoose';
import { startBenchChild } from './bench-child';

const SIZES = [1_000, 40_000] as const;
const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 2_000);
const WARMUP = 50;
const MAX_RATIO = 1.5;
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const runs = !ONLY || ONLY.includes('idlookup');

/** A ledger knack entry as the app writes it: about 400 bytes, three legs. */
function entry(contentId: Types.ObjectId, userId: Types.ObjectId, ownerId: Types.ObjectId, at: Date) {
  const legs = [
    { account: `user:${userId}`, amountMicros: -990_000 },
    { account: `user:${ownerId}`, amountMicros: 891_000 },
    { account: 'platform:fees', amountMicros: 99_000 },
  ];
  return {
    _id: `knack:${contentId}:${userId}`,
    kind: 'knack',
    at,
    actorId: userId,
    contentId,
    legs,
    method: 'standard-credit',
    amountMicros: 990_000,
    ref: null,
    accounts: legs.map((leg) => leg.account),
  };
}

type Entry = ReturnType<typeof entry>;

async function fill(collection: mongoose.mongo.Collection<Entry>, count: number): Promise<string[]> {
  await collection.createIndexes([{ key: { accounts: 1, at: -1 } }, { key: { kind: 1, actorId: 1, at: -1 } }, { key: { contentId: 1 } }]);
  const pieces = Array.from({ length: 200 }, () => new Types.ObjectId());
  const owners = Array.from({ length: 20 }, () => new Types.ObjectId());
  const ids: string[] = [];
  const start = Date.now() - count * 1000;
  for (let done = 0; done < count; done += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, count - done) }, (_, i) => {
      const n = done + i;
      return entry(pieces[n % pieces.length]!, new Types.ObjectId(), owners[n % owners.length]!, new Date(start + n * 1000));
    });
    await collection.insertMany(batch, { ordered: false });
    ids.push(...batch.map((doc) => doc._id));
  }
  return ids;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main() {
  const child = await startBenchChild('idlookup');
  let failed = false;
  try {
    const db = mongoose.connection.db!;
    const sets = [];
    for (const size of SIZES) {
      const collection = db.collection<Entry>(`idlookup_${size}`);
      const filled = Date.now();
      const ids = await fill(collection, size);
      console.log(`  ${size.toLocaleString('en-US')} entries written in ${((Date.now() - filled) / 1000).toFixed(1)} s`);
      sets.push({ size, collection, ids, times: [] as number[] });
    }
    for (let i = 0; i < WARMUP + LOOKUPS; i++) {
      for (const set of sets) {
        const id = set.ids[Math.floor(Math.random() * set.ids.length)]!;
        const began = process.hrtime.bigint();
        const found = await set.collection.findOne({ _id: id });
        const ms = Number(process.hrtime.bigint() - began) / 1e6;
        if (found?._id !== id) throw new Error(`findOne({ _id: ${id} }) in ${set.size} entries found ${String(found?._id)}`);
        if (i >= WARMUP) set.times.push(ms);
      }
    }
    const medians: number[] = [];
    for (const set of sets) {
      const sorted = [...set.times].sort((a, b) => a - b);
      medians.push(quantile(sorted, 0.5));
      console.log(
        `  findOne by _id in ${set.size.toLocaleString('en-US').padStart(6)} entries: median ${quantile(sorted, 0.5).toFixed(2)} ms, p99 ${quantile(sorted, 0.99).toFixed(2)} ms (${sorted.length} lookups)`,
      );
    }
    const ratio = medians[1]! / medians[0]!;
    failed = !(ratio < MAX_RATIO);
    console.log(
      `  ${failed ? 'FAIL' : 'PASS'}: ${SIZES[1].toLocaleString('en-US')} / ${SIZES[0].toLocaleString('en-US')} entries = ${ratio.toFixed(2)} (goal < ${MAX_RATIO})`,
    );
  } finally {
    await child.close();
  }
  if (failed) process.exitCode = 1;
}

if (!runs) console.log('Lookup by _id: no part asked (BENCH_ONLY)');
else {
  console.log(`Lookup by _id (${LOOKUPS} lookups per size)`);
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
