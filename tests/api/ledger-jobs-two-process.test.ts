/**
 * The jobs that read the ledger, reading only what arrived since their last run: entries posted through two app
 * processes at once, then each job run twice (at the same time, and again). The ledger's lists of days
 * (ledger.days.ts, a journal consumer), the daily root and its proofs, the admin dashboard's figures, the earnings
 * rollups and a listing left unmarked by a payment stopped half-way each equal their recount from the whole ledger:
 * every kept state's check finds no difference, and the answers a member or an admin gets are the recount's.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { signAccessToken } from '../../server/lib/access-token';
import { merkleRoot, rootFromInclusionPath } from '../../server/lib/merkle';
import { earningsRollupsState, runEarningsRollups } from '../../server/modules/analytics';
import { LedgerRootModel, ledgerRootsState, type LedgerRootDoc } from '../../server/modules/anchors';
import { ContentModel } from '../../server/modules/contents';
import { adminStatsState, refreshAdminStats } from '../../server/modules/dashboard';
import {
  byEntryId,
  canonicalEntry,
  creditedBy,
  ledgerDaysState,
  LedgerEntryModel,
  post,
  syncLedgerDays,
  type LedgerEntryDoc,
} from '../../server/modules/ledger';
import { JournalCheckpointModel } from '../../server/modules/ledger/testing';
import { listingMarksState } from '../../server/modules/payments';
import { UserModel } from '../../server/modules/users';
import { createTestApp, createTestServices, testConfig } from '../helpers/app';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, payListing, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { startSecondApp, type SecondApp } from '../helpers/second-process';

useTestDatabase();

const MEMBERS = 12;
const DAY_MS = 86_400_000;
const STATES = [ledgerDaysState, ledgerRootsState, adminStatsState, earningsRollupsState, listingMarksState];

let app: ReturnType<typeof createTestApp>;
let second: SecondApp;

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
  second = await startSecondApp();
}, 60_000);

afterAll(async () => second?.stop());

/** Every kept state's check, by name: each list of differences. */
async function checks(): Promise<Record<string, string[]>> {
  const reports: Record<string, string[]> = {};
  for (const state of STATES) reports[state.name] = (await state.check()).differences;
  return reports;
}
const NO_DIFFERENCES = Object.fromEntries(STATES.map((state) => [state.name, []]));

/** Today's ledger entries recounted from the whole ledger by `at`. */
async function entriesOfToday(): Promise<LedgerEntryDoc[]> {
  const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  return LedgerEntryModel.collection.find({ at: { $gte: today, $lt: new Date(today.getTime() + DAY_MS) } }).toArray() as unknown as Promise<LedgerEntryDoc[]>;
}

describe('the jobs that read the ledger, after entries posted through two app processes', () => {
  let owner: TestMember;
  let admin: TestMember;
  let pieces: TestPiece[];
  let stalled: TestPiece;

  it('when knacks arrive through both processes at once and each job runs twice, then every kept state equals its recount and nothing is counted twice', async () => {
    owner = await createMember();
    admin = await adminMember();
    pieces = [await payListing(await createPiece(owner), owner), await payListing(await createPiece(owner, { type: 'art', subTag: 'Digital Art' }), owner)];
    // A payment stopped between its two steps: the listing fee is in the ledger, the piece not marked.
    stalled = await createPiece(owner);
    await post({
      _id: `listing:${stalled.id}`,
      kind: 'listing',
      at: new Date(),
      actorId: new Types.ObjectId(owner.id),
      contentId: new Types.ObjectId(stalled.id),
      legs: [],
      method: 'standard-credit',
      amountMicros: 650_000,
      ref: null,
    });

    const crowd = await UserModel.insertMany(
      Array.from({ length: MEMBERS }, (_, i) => ({ email: `jobs${i}@knack.test`, username: `jobs_${i}`, firstName: 'Jobs', isActive: true })),
    );
    const auth = testConfig().auth;
    const knack = (member: (typeof crowd)[number], piece: TestPiece, through: Parameters<typeof request>[0]) =>
      request(through)
        .post('/api/v2/knack/add')
        .set({ Authorization: `Bearer ${signAccessToken(auth, { userId: String(member._id), tokenVersion: 0 })}` })
        .send({ contentId: piece.id, userId: String(member._id) });
    // Half the crowd's knacks through each process, all at once, with the first jobs' runs among them.
    const sends = crowd.flatMap((member, i) => pieces.map((piece) => knack(member, piece, i % 2 ? app : second.url)));
    const [answers] = await Promise.all([Promise.all(sends), syncLedgerDays(), refreshAdminStats()]);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);

    const payments = createTestServices().payments;
    for (let run = 0; run < 2; run++) {
      await Promise.all([refreshAdminStats(), runEarningsRollups(), payments.repairListings(), payments.repairListings()]);
    }
    expect(await checks()).toEqual(NO_DIFFERENCES);

    // The dashboard's today is the recount of today's entries from the whole ledger.
    const entries = await entriesOfToday();
    const knacks = entries.filter((entry) => entry.kind === 'knack');
    expect(knacks).toHaveLength(MEMBERS * pieces.length);
    const seen = await request(app).get('/api/v2/admin/dashboard').set(bearer(admin)).expect(200);
    expect(seen.body.today).toMatchObject({ knacks: knacks.length, knackValueMicros: knacks.reduce((sum, entry) => sum + creditedBy(entry), 0), listings: 3 });

    // The listing left unmarked is marked by its payer, once.
    const quote = await request(app).get(`/api/v2/payments/listing-quote/${stalled.id}`).set(bearer(owner)).expect(200);
    expect(quote.body).toMatchObject({ isPaidOut: true });
    expect(await ContentModel.findById(stalled.id, { payerId: 1 }).lean()).toMatchObject({ payerId: new Types.ObjectId(owner.id) });
  });

  it('when the lists of days are handed the whole journal again (at least once), then no entry is listed twice', async () => {
    await JournalCheckpointModel.updateOne({ _id: 'ledger-days' }, { $set: { n: 0 } });
    const pass = await syncLedgerDays();
    expect(pass.entries).toBe((await LedgerEntryModel.countDocuments()) as number);
    expect(await checks()).toEqual(NO_DIFFERENCES);
  });

  it("when the day is over and settled, then its root is the Merkle root of the day's entries recounted from the ledger, and every proof leads to it", async () => {
    const day = new Date().toISOString().slice(0, 10);
    const anchors = createTestServices().anchors;
    const afterDay = new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS + 30 * 60_000);
    expect((await Promise.all([anchors.run(afterDay), anchors.run(afterDay)])).flatMap((run) => run.rooted)).toEqual([day]);

    const entries = (await entriesOfToday()).sort(byEntryId);
    const recounted = merkleRoot(entries.map((entry) => Buffer.from(canonicalEntry(entry), 'utf8'))).toString('hex');
    const root = (await LedgerRootModel.findById(day).lean<LedgerRootDoc>())!;
    expect(root).toMatchObject({ root: recounted, count: entries.length });

    // A proof is answered once the day is over: asked at the time of the run, with a token of that time.
    const clock = freezeDate(afterDay.getTime());
    try {
      const token = signAccessToken(testConfig().auth, { userId: admin.id, tokenVersion: 0 });
      for (const entry of entries.slice(0, 5)) {
        const res = await request(app)
          .get(`/api/v2/ledger/proofs/${encodeURIComponent(entry._id)}`)
          .set({ Authorization: `Bearer ${token}` });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ entryId: entry._id, day, treeSize: entries.length, root: recounted });
        const path = (res.body.path as string[]).map((node) => Buffer.from(node, 'hex'));
        expect(rootFromInclusionPath(Buffer.from(res.body.entry, 'utf8'), res.body.leafIndex, res.body.treeSize, path)?.toString('hex')).toBe(recounted);
      }
    } finally {
      clock.restore();
    }
    expect(await checks()).toEqual(NO_DIFFERENCES);
  });

  it('when every kept state is rebuilt from the facts, then each check still finds no difference and the root is unchanged', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const before = await LedgerRootModel.findById(day).lean();
    for (const state of STATES) await state.rebuild();
    expect(await checks()).toEqual(NO_DIFFERENCES);
    expect(await LedgerRootModel.findById(day).lean()).toEqual(before);
  });
});
