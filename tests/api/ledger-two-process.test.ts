/**
 * The ledger's kept states (server/modules/ledger/ledger.kept.ts) after concurrent posts from two app processes:
 * knacks by many members on pieces of a few owners (each sent to both processes at once), listing fees and a
 * cash-out. Then every kept state's check() is empty, and what the API answers (wallet/summary,
 * knack/get-available-knacks, knack/get-money, sign-in's reacted_contents) equals the sums over the entries.
 */
import bcrypt from 'bcrypt';
import { Types } from 'mongoose';
import request from 'supertest';
import { keptStates } from '../../server/jobs/kept-states';
import { seedReferenceData } from '../../server/db/seed';
import { followLedgerBalances, LedgerEntryModel, post, userAccount, type LedgerEntryDoc } from '../../server/modules/ledger';
import { PostingModel } from '../../server/modules/ledger/testing';
import { UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { bearer, createMember, createPiece, payListing, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { useSecondAppPerTest } from '../helpers/second-process';

useTestDatabase();

const PASSWORD = 'Str0ng!pass';
const CROWD = 12;
const LEDGER_STATES = ['ledger-journal', 'ledger-balances', 'piece-earnings', 'reacted-pieces'];

let app: ReturnType<typeof createTestApp>;
let passwordHash: string;

beforeAll(async () => {
  passwordHash = await bcrypt.hash(PASSWORD, 4);
  app = createTestApp();
}, 60_000);
const second = useSecondAppPerTest();

const states = () => keptStates.filter((state) => LEDGER_STATES.includes(state.name));
const checks = async () => Object.fromEntries(await Promise.all(states().map(async (state) => [state.name, (await state.check()).differences] as const)));
const allExact = Object.fromEntries(LEDGER_STATES.map((name) => [name, []]));

const entries = () => LedgerEntryModel.find({}).lean<LedgerEntryDoc[]>();
const sumFor = (all: LedgerEntryDoc[], account: string) =>
  all.reduce((sum, entry) => sum + entry.legs.reduce((legs, leg) => legs + (leg.account === account ? leg.amountMicros : 0), 0), 0);
const creditedOn = (all: LedgerEntryDoc[], pieceId: string) =>
  all
    .filter((entry) => entry.kind === 'knack' && String(entry.contentId) === pieceId)
    .reduce((sum, entry) => sum + entry.legs.reduce((legs, leg) => legs + Math.max(0, leg.amountMicros), 0), 0);

async function member(): Promise<TestMember> {
  const created = await createMember();
  await UserModel.updateOne({ _id: created.id }, { $set: { passwordHash } });
  return created;
}

/** The scene: 3 owners with 2 pieces each (one listed by a supporter), a crowd knacking them through both processes at once. */
async function concurrentScene() {
  const owners = await Promise.all([member(), member(), member()]);
  const supporter = await member();
  const crowd = await Promise.all(Array.from({ length: CROWD }, () => member()));
  const pieces: TestPiece[] = [];
  for (const owner of owners) {
    pieces.push(await payListing(await createPiece(owner, { knackRateMicros: 50_000 }), owner));
    pieces.push(await payListing(await createPiece(owner, { type: 'art', subTag: 'Digital Art', knackRateMicros: 990_000 }), supporter));
  }
  const knack = (who: TestMember, piece: TestPiece, through: Parameters<typeof request>[0]) =>
    request(through).post('/api/v2/knack/add').set(bearer(who)).send({ contentId: piece.id, userId: who.id });
  // Each crowd member knacks 4 of the 6 pieces, each knack sent to both processes at once.
  const sends = crowd.flatMap((who, i) =>
    pieces.filter((_, p) => (p + i) % 3 !== 0).flatMap((piece) => [knack(who, piece, app), knack(who, piece, second.url)]),
  );
  // Meanwhile a cash-out-like payment leaves the first owner's balance once they have some, posted by the test process.
  const answers = await Promise.all(sends);
  expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
  const balance = sumFor(await entries(), userAccount(owners[0]!.id));
  const payout = await post({
    _id: `cash-out:${new Types.ObjectId().toHexString()}`,
    kind: 'cash-out',
    at: new Date(),
    actorId: new Types.ObjectId(owners[0]!.id),
    contentId: null,
    legs: [
      { account: userAccount(owners[0]!.id), amountMicros: -balance },
      { account: 'external:payouts', amountMicros: balance },
    ],
    amountMicros: balance,
  });
  expect(payout.created).toBe(true);
  return { owners, supporter, crowd, pieces };
}

/** What the API answers, compared with the sums over the entries. */
async function expectApiEqualsEntries({ owners, supporter, crowd, pieces }: Awaited<ReturnType<typeof concurrentScene>>) {
  const all = await entries();
  for (const who of [...owners, supporter, crowd[0]!]) {
    const expected = sumFor(all, userAccount(who.id));
    const summary = await request(app).get(`/api/v2/wallet/summary/${who.id}`).set(bearer(who)).expect(200);
    expect([who.id, summary.body.balanceMicros]).toEqual([who.id, expected]);
    const available = await request(second.url).get('/api/v2/knack/get-available-knacks').set(bearer(who)).expect(200);
    expect([who.id, available.body.balanceMicros]).toEqual([who.id, expected]);
  }
  // The first owner's cash-out took their whole balance: what the summary says was paid out.
  const first = await request(app).get(`/api/v2/wallet/summary/${owners[0]!.id}`).set(bearer(owners[0]!)).expect(200);
  expect(first.body).toMatchObject({
    balanceMicros: 0,
    paidOutMicros: -sumFor(
      all.filter((e) => e.kind === 'cash-out'),
      userAccount(owners[0]!.id),
    ),
  });
  for (const piece of pieces) {
    const owner = owners.find((o) => o.id === piece.ownerId)!;
    const money = await request(second.url).get(`/api/v2/knack/get-money/${piece.id}`).set(bearer(owner)).expect(200);
    expect([piece.id, money.body.earnedMicros]).toEqual([piece.id, creditedOn(all, piece.id)]);
  }
  for (const who of crowd.slice(0, 4)) {
    const signin = await request(app).post('/api/v2/auth/signin').send({ email: who.email, password: PASSWORD }).expect(200);
    const knacked = all.filter((e) => e.kind === 'knack' && String(e.actorId) === who.id).map((e) => String(e.contentId));
    expect([...signin.body.reacted_contents].sort()).toEqual(knacked.sort());
  }
}

describe('the ledger’s kept states after concurrent posts from two processes', () => {
  jest.setTimeout(120_000);

  it('when many members knack pieces of a few owners through both processes at once and a cash-out is posted, then every check is empty and the API answers the sums over the entries', async () => {
    const scene = await concurrentScene();
    expect(await LedgerEntryModel.countDocuments({ kind: 'knack' })).toBe(CROWD * 4);
    expect(await checks()).toEqual(allExact);
    await expectApiEqualsEntries(scene);
    // The balances job, run now, has nothing to do yet (every slot is younger than its grace) and finds nothing wrong.
    expect(await followLedgerBalances()).toMatchObject({ entries: 0, appended: 0, problems: [] });
    // With the grace over (as a minute's run later on), it checks every posting and appends none.
    const run = await followLedgerBalances({ minAgeMs: 0 });
    expect(run).toMatchObject({ appended: 0, problems: [] });
    expect(run.checked).toBeGreaterThan(CROWD * 4 * 3);
  });

  it('when a posting is lost, then the check names it and the balances job (or a rebuild) puts it back, and the API answers the sums again', async () => {
    const scene = await concurrentScene();
    const owner = scene.owners[1]!;
    const [last] = await PostingModel.collection
      .find({ _id: { $regex: `^user:${owner.id}#` } as never })
      .sort({ n: -1 })
      .limit(1)
      .toArray();
    await PostingModel.collection.deleteOne({ _id: last!._id as never });
    const found = await checks();
    expect(found['ledger-balances']).toEqual(expect.arrayContaining([expect.stringContaining(`user:${owner.id}: entry ${last!.entryId} not posted`)]));

    for (const state of states()) await state.rebuild();
    expect(await checks()).toEqual(allExact);
    await expectApiEqualsEntries(scene);
    // After a rebuild, the job reads on from where it was and finds everything posted once.
    expect(await followLedgerBalances({ minAgeMs: 0 })).toMatchObject({ appended: 0, problems: [] });
    expect(await checks()).toEqual(allExact);
  });
});
