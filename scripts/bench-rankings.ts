/**
 * `npm run bench:rankings`: shows that one run of the rankings job costs what arrived since its last run, not the
 * ledger's history. For each of two histories, H and 10 x H knack entries (BENCH_RANKINGS_HISTORY, default 20,000,
 * spread over the last 60 days), each in a database of its own with the same pieces and members: the history is
 * written in bulk (ledger entries with their journal slots, as the journal's rebuild writes them), the full recount
 * (`refreshRankings`, what `npm run rebuild -- rankings` runs) sets the job's checkpoint at its end, then the same
 * number of new knacks (BENCH_RANKINGS_NEW, default 2,000, today) is appended and one job run (`updateRankings`) is
 * timed. Prints both runs, and the full recounts for contrast. Uses MONGODB_URI, or a throw-away embedded database.
 */
import { fork } from 'node:child_process';
import { Types } from 'mongoose';
import { ContentModel } from '../server/modules/contents';
import { refreshRankings, updateRankings } from '../server/modules/feeds';
import { knackLegs, LedgerEntryModel, type LedgerEntryDoc } from '../server/modules/ledger';
import { insertJournalSlots } from '../server/modules/ledger/testing';
import { UserModel } from '../server/modules/users';
import { startBenchChild } from './bench-child';

const HISTORY = Number(process.env.BENCH_RANKINGS_HISTORY ?? 20_000);
const NEW = Number(process.env.BENCH_RANKINGS_NEW ?? 2_000);
const PIECES = Number(process.env.BENCH_RANKINGS_PIECES ?? 2_000);
const OWNERS = 200;
const DAY_MS = 86_400_000;
const KNACK_MICROS = 50_000;

/** `count` knack entries numbered from `firstSeq`, by members never seen before, on the pieces in turn (a few pieces most). */
function knacks(pieces: { _id: Types.ObjectId; ownerId: Types.ObjectId }[], firstSeq: number, count: number, at: (i: number) => Date): LedgerEntryDoc[] {
  return Array.from({ length: count }, (_, i) => {
    // Skewed: half the knacks on the first 2% of the pieces.
    const index = i % 2 ? i % pieces.length : i % Math.max(1, Math.floor(pieces.length / 50));
    const piece = pieces[index]!;
    const member = new Types.ObjectId();
    const legs = knackLegs(KNACK_MICROS, String(piece.ownerId), null);
    return {
      _id: `knack:${String(piece._id)}:${String(member)}`,
      kind: 'knack',
      at: at(i),
      actorId: member,
      contentId: piece._id,
      legs,
      accounts: legs.map((leg) => leg.account),
      seq: firstSeq + i,
    } as unknown as LedgerEntryDoc;
  });
}

async function append(entries: LedgerEntryDoc[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 1000) {
    const batch = entries.slice(i, i + 1000);
    await insertJournalSlots(batch[0]!.seq!, batch, new Date());
    await LedgerEntryModel.collection.insertMany(batch as never[], { ordered: false });
  }
}

interface Measured {
  history: number;
  recountMs: number;
  jobMs: number;
  knacks: number;
  parts: { journal: number; settle: number; lists: number };
}

async function measure(history: number): Promise<Measured> {
  const child = await startBenchChild(`rankings-${history}`);
  try {
    const owners = await UserModel.insertMany(
      Array.from({ length: OWNERS }, (_, i) => ({ email: `owner${i}@bench.knack`, username: `bench_owner_${i}`, firstName: 'Owner', isActive: true })),
    );
    const now = Date.now();
    const pieces = await ContentModel.insertMany(
      Array.from({ length: PIECES }, (_, n) => {
        const owner = owners[n % OWNERS]!;
        return {
          ownerId: owner._id,
          ownerUsername: owner.username,
          title: `Piece ${n}`,
          slug: `bench-rankings-${n}`,
          titleWords: [],
          description: 'A bench piece',
          tags: [{ name: 'Photos' }],
          type: 'photos',
          photoUploadId: new Types.ObjectId(),
          media: { photoKey: `bench-${n}.jpg`, thumbKeys: {}, fileSize: 1, fileType: 'image/jpeg' },
          knackRateMicros: KNACK_MICROS,
          listed: true,
          featureRank: now - n,
          uploadedAt: new Date(now - (n % 90) * DAY_MS),
        };
      }),
    );
    await append(knacks(pieces, 1, history, (i) => new Date(now - 60 * DAY_MS + Math.floor((i * 59 * DAY_MS) / history))));
    let started = Date.now();
    await refreshRankings();
    const recountMs = Date.now() - started;
    await append(knacks(pieces, history + 1, NEW, () => new Date()));
    started = Date.now();
    const run = await updateRankings();
    return { history, recountMs, jobMs: Date.now() - started, knacks: run.knacks, parts: run.ms };
  } finally {
    await child.close();
  }
}

/** Each history in a process of its own (its own connection and database), answering its figures as a message. */
function measureApart(history: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_RANKINGS_ONE: String(history) } });
    child.once('message', (figures: Measured) => resolve(figures));
    child.once('exit', (code) => (code ? reject(new Error(`the run with ${history} knacks of history stopped (exit code ${code})`)) : undefined));
  });
}

async function main(): Promise<void> {
  const one = process.env.BENCH_RANKINGS_ONE;
  if (one) {
    process.send!(await measure(Number(one)));
    return;
  }
  console.log(`Rankings job: ${PIECES} pieces, ${OWNERS} owners; history H = ${HISTORY} and 10 x H knacks, then ${NEW} new ones each`);
  const rows: Measured[] = [];
  for (const history of [HISTORY, 10 * HISTORY]) rows.push(await measureApart(history));
  console.log('history   new  counted  job run (ms)  full recount (ms)  job run parts (ms): journal + counts / settle / lists');
  for (const row of rows)
    console.log(
      `${String(row.history).padStart(7)} ${String(NEW).padStart(5)} ${String(row.knacks).padStart(8)} ${String(row.jobMs).padStart(13)} ${String(row.recountMs).padStart(18)}  ${row.parts.journal} / ${row.parts.settle} / ${row.parts.lists}`,
    );
  console.log(
    `job run ratio (10 x H / H): ${(rows[1]!.jobMs / rows[0]!.jobMs).toFixed(2)}; full recount ratio: ${(rows[1]!.recountMs / rows[0]!.recountMs).toFixed(2)}`,
  );
}

main()
  .then(() => process.exit(0))
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
