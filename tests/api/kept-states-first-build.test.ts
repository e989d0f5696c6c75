/**
 * The start-up step that builds kept states a database has never had (server/jobs/kept-states.ts,
 * buildMissingKeptStates): a database written by an older release holds the facts (members, pieces, ledger entries)
 * but none of the kept documents read by `_id` (running balances, piece earnings, the journal). Without the step the
 * wallet of such a member would read 0; with it, once, every state is built from the facts, then marked, and a second
 * start builds nothing. An empty database is only marked: its writers keep every state from the first fact.
 */
import request from 'supertest';
import { buildMissingKeptStates, keptStates } from '../../server/jobs/kept-states';
import { seedReferenceData } from '../../server/db/seed';
import { isKeptStateMarked, KeptStateMarkModel } from '../../server/lib/kept-state';
import { LedgerEntryModel, forgetLedgerChains, userAccount, type LedgerEntryDoc } from '../../server/modules/ledger';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { bearer, createMember, createPiece, payListing } from '../helpers/ledger-factory';
import mongoose from 'mongoose';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
beforeAll(() => {
  app = createTestApp();
});
beforeEach(async () => {
  await clearDatabase();
});

const everyName = () => keptStates.map((state) => state.name);
const marked = async () => (await Promise.all(everyName().map(async (name) => ((await isKeptStateMarked(name)) ? name : null)))).filter(Boolean);

it('marks every kept state of an empty database without building, and builds nothing at the next start', async () => {
  expect(await buildMissingKeptStates()).toEqual([]);
  expect(await marked()).toEqual(everyName());
  expect(await buildMissingKeptStates()).toEqual([]);
});

it("builds, once, the kept states of a database written before they existed: the wallet then shows the ledger's balance", async () => {
  await seedReferenceData();
  const owner = await createMember();
  const fan = await createMember();
  const piece = await payListing(await createPiece(owner, { knackRateMicros: 50_000 }), owner);
  const knacked = await request(app).post('/api/v2/knack/add').set(bearer(fan)).send({ contentId: piece.id, userId: fan.id });
  expect(knacked.status).toBe(200);
  const entries = await LedgerEntryModel.find({}).lean<LedgerEntryDoc[]>();
  const owed = entries.reduce(
    (sum, entry) => sum + entry.legs.filter((leg) => leg.account === userAccount(owner.id)).reduce((s, leg) => s + leg.amountMicros, 0),
    0,
  );
  expect(owed).toBeGreaterThan(0);

  // What an older release left: the facts, and none of the kept documents nor their marks.
  const kept = ['ledger_journal', 'ledger_postings', 'ledger_heads', 'ledger_posting_claims', 'ledger_journal_checkpoints', 'kept_state_marks'];
  await Promise.all(kept.map((name) => mongoose.connection.collection(name).deleteMany({})));
  await LedgerEntryModel.collection.updateMany({}, { $unset: { seq: 1 } });
  forgetLedgerChains();
  const before = await request(app).get(`/api/v2/wallet/summary/${owner.id}`).set(bearer(owner));
  expect(before.status).toBe(200);
  expect(before.body.balanceMicros).toBe(0);

  expect(await buildMissingKeptStates()).toEqual(everyName());
  expect(await KeptStateMarkModel.countDocuments({})).toBe(keptStates.length);
  const after = await request(app).get(`/api/v2/wallet/summary/${owner.id}`).set(bearer(owner));
  expect(after.status).toBe(200);
  expect(after.body.balanceMicros).toBe(owed);
  for (const state of keptStates) expect([state.name, (await state.check()).differences]).toEqual([state.name, []]);
  expect(await buildMissingKeptStates()).toEqual([]);
});
