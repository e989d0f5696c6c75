/**
 * The ledger's journal (server/modules/ledger/ledger.journal.ts): every posted entry in one numbered slot, read by a
 * consumer from its checkpoint in order, at least once; duds (a concurrent twin's slot) passed over; a slot whose
 * entry is missing waited for during its grace period and then completed from the slot.
 */
import { Types } from 'mongoose';
import { PLATFORM_KNACKS, post, readJournal, userAccount, LedgerEntryModel, type LedgerEntryDoc } from '../../server/modules/ledger';
import { appendJournalSlot, JournalCheckpointModel, JournalSlotModel } from '../../server/modules/ledger/testing';
import { clearDatabase, useTestDatabase } from '../helpers/db';

useTestDatabase();
beforeEach(() => clearDatabase());

const owner = new Types.ObjectId();
const knack = (i: number, at = new Date()) => ({
  _id: `knack:${new Types.ObjectId().toHexString()}:${i}`,
  kind: 'knack' as const,
  at,
  actorId: new Types.ObjectId(),
  contentId: new Types.ObjectId(),
  legs: [
    { account: PLATFORM_KNACKS, amountMicros: -50_000 },
    { account: userAccount(owner), amountMicros: 50_000 },
  ],
});

/** Everything a consumer is handed in one pass, with the positions. */
async function drain(consumer: string, options: Parameters<typeof readJournal>[2] = {}) {
  const seen: { entries: LedgerEntryDoc[]; from: number; to: number }[] = [];
  const pass = await readJournal(consumer, async (entries, position) => void seen.push({ entries, ...position }), options);
  return { pass, seen, ids: seen.flatMap((batch) => batch.entries.map((entry) => entry._id)) };
}

describe('the ledger journal', () => {
  it('when 60 entries are posted at once (twins of 20 among them), then each entry is in exactly one live slot and a consumer gets each once, in slot order, in bounded batches', async () => {
    const originals = Array.from({ length: 40 }, (_, i) => knack(i));
    const posts = await Promise.all([...originals, ...originals.slice(0, 20)].map((entry) => post(entry)));
    expect(posts.filter((p) => p.created)).toHaveLength(40);

    const stored = await LedgerEntryModel.find({}).lean<LedgerEntryDoc[]>();
    const slots = await JournalSlotModel.find({}).lean();
    // A twin that lost wrote a dud slot or none (it saw the original first): never an entry.
    expect(stored).toHaveLength(40);
    expect(slots.length).toBeGreaterThanOrEqual(40);
    expect(slots.map((slot) => slot.n).sort((a, b) => a - b)).toEqual(Array.from({ length: slots.length }, (_, i) => i + 1));
    for (const entry of stored) expect(slots.find((slot) => slot.n === entry.seq)!.entry._id).toBe(entry._id);

    const { pass, seen, ids } = await drain('test-consumer', { batchSize: 16 });
    expect(ids.sort()).toEqual(originals.map((entry) => entry._id).sort());
    expect(seen.every((batch) => batch.to - batch.from < 16)).toBe(true);
    const seqs = seen.flatMap((batch) => batch.entries.map((entry) => entry.seq!));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(pass).toEqual({ entries: 40, duds: slots.length - 40, completed: 0, checkpoint: slots.length });
    expect(await JournalCheckpointModel.findById('test-consumer').lean()).toMatchObject({ n: slots.length });

    // The next pass starts after the checkpoint: only what arrived since.
    const later = knack(99);
    await post(later);
    expect((await drain('test-consumer')).ids).toEqual([later._id]);
    expect((await drain('test-consumer')).ids).toEqual([]);
  });

  it('when the consumer fails on a batch, then that batch is handed again on the next pass (at least once)', async () => {
    for (let i = 0; i < 5; i++) await post(knack(i));
    await expect(
      readJournal(
        'flaky',
        async () => {
          throw new Error('consumer down');
        },
        { batchSize: 3 },
      ),
    ).rejects.toThrow('consumer down');
    const { ids, seen } = await drain('flaky', { batchSize: 3 });
    expect(ids).toHaveLength(5);
    expect(seen.map(({ from, to }) => [from, to])).toEqual([
      [1, 3],
      [4, 5],
    ]);
  });

  it('when a post died between its slot and its entry, then consumers wait during the grace period and then complete the entry from the slot, once', async () => {
    await post(knack(1));
    const lost = knack(2);
    const lostSlot = await appendJournalSlot({ method: null, amountMicros: null, ref: null, ...lost, accounts: [PLATFORM_KNACKS, userAccount(owner)] });
    const after = knack(3);
    await post(after);

    const waiting = await drain('c1');
    expect(waiting.ids).toHaveLength(1);
    expect(waiting.pass.checkpoint).toBe(lostSlot - 1);
    expect(await LedgerEntryModel.exists({ _id: lost._id })).toBeNull();

    const completing = await drain('c1', { graceMs: 0 });
    expect(completing.ids).toEqual([lost._id, after._id]);
    expect(completing.pass).toMatchObject({ completed: 1, checkpoint: lostSlot + 1 });
    const completed = await LedgerEntryModel.findById(lost._id).lean<LedgerEntryDoc>();
    expect(completed).toMatchObject({ seq: lostSlot, legs: lost.legs, accounts: [PLATFORM_KNACKS, userAccount(owner)] });

    // The late original (or the client's retry) then finds it: nothing written twice.
    const retried = await post(lost);
    expect(retried.created).toBe(false);
    expect(retried.entry.seq).toBe(lostSlot);
    // Another consumer reading the same slots sees the completed entry as live, once.
    expect((await drain('c2', { graceMs: 0 })).ids).toHaveLength(3);
  });

  it('when the client retried a post that died after its slot, then the first slot is a dud and the entry lives in the retry’s slot', async () => {
    const lost = knack(1);
    const deadSlot = await appendJournalSlot({ method: null, amountMicros: null, ref: null, ...lost, accounts: [PLATFORM_KNACKS, userAccount(owner)] });
    const retried = await post(lost);
    expect(retried.created).toBe(true);
    expect(retried.entry.seq).toBe(deadSlot + 1);
    const { pass, ids } = await drain('c', { graceMs: 0 });
    expect(ids).toEqual([lost._id]);
    expect(pass).toMatchObject({ entries: 1, duds: 1, completed: 0 });
  });

  it('when slots are younger than minAgeMs, then the pass stops before them and hands them later', async () => {
    await post(knack(1));
    expect((await drain('slow', { minAgeMs: 60_000 })).ids).toEqual([]);
    expect((await drain('slow')).ids).toHaveLength(1);
  });
});
