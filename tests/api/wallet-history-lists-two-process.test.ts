/**
 * The lists a member's wallet and history are read from by `_id` (the ledger's `paid:` chains of fees paid, the
 * wallet's cash-out chains and its collections snapshots), after concurrent changes from two app processes: listing
 * fees redeemed with a code and knacks, each sent through both processes at once, and cash-out requests asked,
 * cancelled, declined and restored through either. Then every check is empty, and the wallet summary (collections,
 * the waiting cash-out) and every page of the history and paid list equal what the entries and requests say.
 */
import request from 'supertest';
import { keptStates } from '../../server/jobs/kept-states';
import { anyOf } from '../../server/lib/query';
import { seedReferenceData } from '../../server/db/seed';
import { LedgerEntryModel, type LedgerEntryDoc } from '../../server/modules/ledger';
import { PostingModel } from '../../server/modules/ledger/testing';
import { Types } from 'mongoose';
import { ContentModel, transferOwner } from '../../server/modules/contents';
import { CashOutRequestModel, type CashOutRequestDoc } from '../../server/modules/wallet';
import { CashOutListEntryModel, CollectionsModel } from '../../server/modules/wallet/testing';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, credit, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { startSecondApp, type SecondApp } from '../helpers/second-process';

useTestDatabase();

const STATES = ['ledger-balances', 'listing-fees-paid', 'cash-out-lists', 'wallet-collections'];
const allExact = Object.fromEntries(STATES.map((name) => [name, []]));
const states = () => keptStates.filter((state) => STATES.includes(state.name));
const checks = async () => Object.fromEntries(await Promise.all(states().map(async (state) => [state.name, (await state.check()).differences] as const)));

let app: ReturnType<typeof createTestApp>;
let second: SecondApp;
let admin: TestMember;
type Through = Parameters<typeof request>[0];

beforeAll(() => {
  app = createTestApp();
});
// A second process per test: one that outlived the emptied database would still remember the ends of chains it no
// longer has.
beforeEach(async () => {
  await clearDatabase();
  await seedReferenceData();
  admin = await adminMember();
  second = await startSecondApp();
}, 60_000);
afterEach(async () => second?.stop());

const redeem = (through: Through, payer: TestMember, piece: TestPiece) =>
  request(through).post('/api/v2/code/save').set(bearer(payer)).send({ userId: payer.id, contentId: piece.id, code: 'SCENE' });
const knack = (through: Through, who: TestMember, piece: TestPiece) =>
  request(through).post('/api/v2/knack/add').set(bearer(who)).send({ contentId: piece.id, userId: who.id });
const earn = (through: Through, who: TestMember) => request(through).post('/api/v2/user-history/earn').set(bearer(who)).send({ userId: who.id });

/** Owners with pieces, two supporters listing most of them with a code and a crowd knacking, all through both processes at once. */
async function concurrentScene() {
  await request(app).post('/api/v2/code/create').set(bearer(admin)).send({ code: 'SCENE', maxUses: 100 }).expect(201);
  const owners = await Promise.all([createMember(), createMember()]);
  const supporters = await Promise.all([createMember(), createMember()]);
  const crowd = await Promise.all(Array.from({ length: 8 }, () => createMember()));
  const pieces = await Promise.all(owners.flatMap((owner) => Array.from({ length: 5 }, () => createPiece(owner))));
  // Each owner lists their first piece themself; the supporters list three of each owner's others, each supporter's
  // fees sent half through one process and half through the other, all at once.
  const listings = pieces.flatMap((piece, i): [Through, TestMember, TestPiece][] => {
    const owner = owners.find((o) => o.id === piece.ownerId)!;
    if (i % 5 === 0) return [[i < 5 ? app : second.url, owner, piece]];
    if (i % 5 === 4) return [];
    return [[i % 2 ? app : second.url, supporters[i % 2]!, piece]];
  });
  const answers = await Promise.all(listings.map(([through, payer, piece]) => redeem(through, payer, piece)));
  expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
  const listed = listings.map(([, payer, piece]) => ({ ...piece, payerId: payer.id }));
  // The supporters read their wallets once (their collections snapshots are kept), then the crowd knacks half the
  // listed pieces each (under the daily number that asks for a code), every knack through both processes at once,
  // while the supporters list the owners' last pieces, one through each process.
  await Promise.all(supporters.map((s) => request(app).get(`/api/v2/wallet/summary/${s.id}`).set(bearer(s)).expect(200)));
  const lastPieces = pieces.filter((_, i) => i % 5 === 4);
  const late = await Promise.all([
    ...crowd.flatMap((who, i) => listed.filter((_, p) => (p + i) % 2 === 0).flatMap((piece) => [knack(app, who, piece), knack(second.url, who, piece)])),
    redeem(app, supporters[0]!, lastPieces[0]!),
    redeem(second.url, supporters[1]!, lastPieces[1]!),
  ]);
  expect(late.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
  return { owners, supporters, crowd };
}

/** Members with a balance asking to cash out through both processes at once, and the decisions an admin and they make. */
async function cashOutScene() {
  const askers = await Promise.all(Array.from({ length: 3 }, (_, i) => createMember({ paypal: `asker${i}@example.com` })));
  await Promise.all(askers.map((who) => credit(who, 25_000_000)));
  // Each asks through both processes at once: one request is made, the other answer is 409.
  const first = await Promise.all(askers.flatMap((who) => [earn(app, who), earn(second.url, who)]));
  expect(first.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
  const requestOf = (who: TestMember) => first.find((a) => a.status === 201 && a.body.item.userId === who.id)!.body.item.historyId as string;
  const [a, b, c] = askers as [TestMember, TestMember, TestMember];
  // a: declined, asks anew and cancels four times, and the declined one is restored: it waits again, five numbers
  // below the end of their list, past the newest ones the summary reads (only the restore's pointer finds it).
  await request(second.url)
    .post(`/api/v2/admin/cash-outs/${requestOf(a)}/decline`)
    .set(bearer(admin))
    .send({ reason: 'Check your PayPal email' })
    .expect(200);
  for (let i = 0; i < 4; i++) {
    const again = (await earn(i % 2 ? app : second.url, a).expect(201)).body.item.historyId as string;
    await request(i % 2 ? second.url : app)
      .post('/api/v2/user-history/cancel')
      .set(bearer(a))
      .send({ historyId: again })
      .expect(200);
  }
  await request(app)
    .post(`/api/v2/admin/cash-outs/${requestOf(a)}/restore`)
    .set(bearer(admin))
    .expect(200);
  // b: cancels and asks again through the other process.
  await request(app)
    .post('/api/v2/user-history/cancel')
    .set(bearer(b))
    .send({ historyId: requestOf(b) })
    .expect(200);
  await earn(second.url, b).expect(201);
  // c: asks again while theirs waits, through both processes at once: both 409.
  expect((await Promise.all([earn(app, c), earn(second.url, c)])).map((r) => r.status)).toEqual([409, 409]);
  return askers;
}

/** The history's items as the entries and requests say: newest first, then the greater id first. */
async function expectedHistory(userId: string, paidOnly: boolean): Promise<string[]> {
  const entries = await LedgerEntryModel.find({}).lean<LedgerEntryDoc[]>();
  const actorKinds = paidOnly ? ['listing'] : ['listing', 'refund', 'relisting'];
  const ledger = entries.filter(
    (e) =>
      (actorKinds.includes(e.kind) && String(e.actorId) === userId) ||
      (!paidOnly && ['knack', 'payout'].includes(e.kind) && e.accounts.includes(`user:${userId}`)),
  );
  const requests = paidOnly ? [] : await CashOutRequestModel.find({ userId }).lean<CashOutRequestDoc[]>();
  return [...ledger.map((e) => ({ at: e.at.getTime(), id: e._id })), ...requests.map((r) => ({ at: r.at.getTime(), id: r._id }))]
    .sort((x, y) => y.at - x.at || (x.id < y.id ? 1 : -1))
    .map((row) => row.id);
}

/** Every page of a member's history (limit 4), read through the two processes in turn. */
async function pagedHistory(who: TestMember, paidOnly: boolean): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const through = page % 2 ? second.url : app;
    const url = `/api/v2/user-history/${paidOnly ? 'get-paid' : 'get-all'}/${who.id}?limit=4${cursor ? `&cursor=${cursor}` : ''}`;
    const res: request.Response = await request(through).get(url).set(bearer(who)).expect(200);
    ids.push(...res.body.items.map((item: { historyId: string }) => item.historyId));
    cursor = res.body.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error('the history did not end within 50 pages');
}

/** The wallet's collections and waiting cash-out, as the entries, pieces and requests say. */
async function expectedWallet(userId: string) {
  const listings = await LedgerEntryModel.find({ kind: 'listing', actorId: userId }).lean<LedgerEntryDoc[]>();
  const pieces = await ContentModel.find({ _id: anyOf(listings.map((e) => e.contentId)) }, { ownerId: 1 }).lean();
  const owners = new Map(pieces.map((p) => [String(p._id), String(p.ownerId)]));
  const supported = listings.filter((e) => owners.has(String(e.contentId)) && owners.get(String(e.contentId)) !== userId);
  const collectionsMicros = Math.floor((supported.reduce((sum, e) => sum + (e.amountMicros ?? 0), 0) * 10) / 100);
  const waiting = await CashOutRequestModel.findOne({ userId, status: 'pending' }).lean<CashOutRequestDoc>();
  return { collectionsMicros, pendingCashOutMicros: waiting?.amountMicros ?? 0 };
}

async function expectApiEqualsFacts(members: TestMember[]) {
  for (const [i, who] of members.entries()) {
    const through = i % 2 ? second.url : app;
    const summary = await request(through).get(`/api/v2/wallet/summary/${who.id}`).set(bearer(who)).expect(200);
    expect([who.id, { collectionsMicros: summary.body.collectionsMicros, pendingCashOutMicros: summary.body.pendingCashOutMicros }]).toEqual([
      who.id,
      await expectedWallet(who.id),
    ]);
    expect([who.id, await pagedHistory(who, false)]).toEqual([who.id, await expectedHistory(who.id, false)]);
    expect([who.id, await pagedHistory(who, true)]).toEqual([who.id, await expectedHistory(who.id, true)]);
  }
}

describe('the wallet and history lists after concurrent changes from two processes', () => {
  jest.setTimeout(180_000);

  it('when fees, knacks and cash-outs arrive through both processes at once, then every check is empty and the wallet and every history page equal the facts', async () => {
    const { owners, supporters, crowd } = await concurrentScene();
    const askers = await cashOutScene();
    expect(await checks()).toEqual(allExact);
    // What the scene made, so that the comparisons below compare something: 4 + 2 supported fees, 2 own ones, 3 waiting requests.
    expect(await LedgerEntryModel.countDocuments({ kind: 'listing' })).toBe(10);
    expect(await CashOutRequestModel.countDocuments({ status: 'pending' })).toBe(3);
    const [supporter] = supporters;
    expect((await expectedWallet(supporter!.id)).collectionsMicros).toBeGreaterThan(0);
    await expectApiEqualsFacts([...owners, ...supporters, crowd[0]!, ...askers]);
    expect(await checks()).toEqual(allExact);
  });

  it("when a supported piece is removed, or changes hands to its supporter, then the supporter's collections drop at once, through either process", async () => {
    await request(app).post('/api/v2/code/create').set(bearer(admin)).send({ code: 'SCENE', maxUses: 10 }).expect(201);
    const [owner, supporter] = await Promise.all([createMember(), createMember()]);
    const pieces = await Promise.all(Array.from({ length: 3 }, () => createPiece(owner)));
    for (const piece of pieces) await redeem(app, supporter, piece).expect(200);
    const collections = async (through: Through) =>
      (await request(through).get(`/api/v2/wallet/summary/${supporter.id}`).set(bearer(supporter)).expect(200)).body.collectionsMicros as number;
    // Read through both processes: each has counted the three fees, and the snapshot is kept.
    const all = (await expectedWallet(supporter.id)).collectionsMicros;
    expect([await collections(app), await collections(second.url)]).toEqual([all, all]);

    // The owner removes one piece through the second process; the first process's next read counts it no more.
    await request(second.url).post('/api/v2/content/delete').set(bearer(owner)).send({ contentId: pieces[0]!.id }).expect(200);
    const afterRemoval = (await expectedWallet(supporter.id)).collectionsMicros;
    expect(afterRemoval).toBeLessThan(all);
    expect(await collections(app)).toBe(afterRemoval);

    // Another piece changes hands to its supporter (what a sale's settlement does): it is the supporter's own now.
    await transferOwner(new Types.ObjectId(pieces[1]!.id), { id: new Types.ObjectId(supporter.id), username: supporter.username, fullName: 'Supporter' });
    const afterSale = (await expectedWallet(supporter.id)).collectionsMicros;
    expect(afterSale).toBeLessThan(afterRemoval);
    expect(afterSale).toBeGreaterThan(0);
    expect([await collections(second.url), await collections(app)]).toEqual([afterSale, afterSale]);
    expect(await checks()).toEqual(allExact);
  });

  it('when a kept list loses a document or a snapshot is wrong, then the check names it and the rebuild puts it right', async () => {
    const { supporters } = await concurrentScene();
    const askers = await cashOutScene();
    const [supporter] = supporters as [TestMember, TestMember];
    const asker = askers[0]!;
    // A fees-paid posting lost, a cash-out number lost, and a collections snapshot that says too much.
    const [posting] = await PostingModel.collection
      .find({ _id: { $regex: `^paid:${supporter.id}#` } as never })
      .sort({ n: -1 })
      .limit(1)
      .toArray();
    await PostingModel.collection.deleteOne({ _id: posting!._id as never });
    await CashOutListEntryModel.collection.deleteOne({ _id: `${asker.id}#1` as never });
    await CollectionsModel.collection.updateOne({ _id: supporters[1]!.id as never }, { $inc: { supportedMicros: 1 } });
    const found = await checks();
    expect(found['listing-fees-paid']).toEqual(expect.arrayContaining([expect.stringContaining(`paid:${supporter.id}: entry ${posting!.entryId} not posted`)]));
    expect(found['cash-out-lists']).toEqual(expect.arrayContaining([expect.stringContaining(`cash-outs of ${asker.id}: number 1 is missing`)]));
    expect(found['wallet-collections']).toEqual(expect.arrayContaining([expect.stringContaining(`collections of ${supporters[1]!.id}: kept`)]));

    for (const state of states()) await state.rebuild();
    expect(await checks()).toEqual(allExact);
    // The rebuild ran in this process; the second one still remembers the chains' old ends, so it starts again.
    await second.stop();
    second = await startSecondApp();
    await expectApiEqualsFacts([...supporters, ...askers]);
  });
});
