/**
 * Each member's cash-out requests in the order they were asked, as a numbered chain (lib/numbered-chain.ts) in
 * `cash_out_lists`: `{userId}#{n}` names the request (`requestId`) and when it was asked (`at`). Their history pages
 * through it by `_id` from the newest, and their waiting request is found from its newest numbers.
 *
 * A number is taken before its request is written (under the member's funds lock, after checking that none waits),
 * so a request never exists without its number; a number whose request was never written (a crash in between, or a
 * twin refused by the unique waiting slot) is skipped by every reader, as a request that no longer exists would be.
 *
 * Each number also holds `maxAt`, the latest `at` of numbers 1..n, so that a reader walking down knows nothing below
 * is newer (the ledger's chains keep the same, ledger.postings.ts).
 *
 * `cash_out_list_heads` keeps, per member, a hint of their chain's end (best-effort, never ahead of it).
 *
 * The waiting request: a member has at most one (wallet.model.ts: the unique `pending:{userId}` slot, and every path
 * that makes a request wait checks first, under the funds lock, that none does). It is either the newest request
 * asked (nothing can be asked while it waits) or one an admin restored, which `latest_cash_outs` names (the restore
 * writes it first, under the same lock, and nothing else moves it while that request waits). So reading that pointer
 * and the chain's newest few numbers finds it, by `_id`, however many requests the member ever made.
 */
import { Schema, model } from 'mongoose';
import { noteDifference, type KeptState, type KeptStateReport } from '../../lib/kept-state';
import { numberedChains } from '../../lib/numbered-chain';
import { keepHint, readById } from '../../lib/query';
import { CashOutRequestModel, LatestCashOutModel, type CashOutRequestDoc, type LatestCashOutDoc } from './wallet.model';

export interface CashOutListEntryDoc {
  /** `{userId}#{n}`. */
  _id: string;
  n: number;
  userId: string;
  requestId: string;
  at: Date;
  /** The latest `at` of numbers 1..n. */
  maxAt: Date;
}
const cashOutListEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
    userId: { type: String, required: true },
    requestId: { type: String, required: true },
    at: { type: Date, required: true },
    maxAt: { type: Date, required: true },
  },
  { versionKey: false },
);
export const CashOutListEntryModel = model<CashOutListEntryDoc>('CashOutListEntry', cashOutListEntrySchema, 'cash_out_lists');

/** A member's chain end hint (`_id` = the member's id). */
interface CashOutListHeadDoc {
  _id: string;
  n: number;
  requestId: string;
  maxAt: Date;
}
const cashOutListHeadSchema = new Schema(
  {
    _id: { type: String, required: true },
    n: { type: Number, required: true },
    requestId: { type: String, required: true },
    maxAt: { type: Date, required: true },
  },
  { versionKey: false },
);
export const CashOutListHeadModel = model<CashOutListHeadDoc>('CashOutListHead', cashOutListHeadSchema, 'cash_out_list_heads');

const chains = numberedChains<Pick<CashOutListEntryDoc, 'requestId' | 'maxAt'>>(CashOutListEntryModel, {
  separator: '#',
  projection: { requestId: 1, maxAt: 1 },
  hint: async (userId) => {
    const head = await readById<CashOutListHeadDoc>(CashOutListHeadModel, userId);
    return head && head.n > 0 ? { n: head.n, doc: { requestId: head.requestId, maxAt: head.maxAt } } : null;
  },
});

/** How many of a chain's newest numbers are read for the waiting request (a few, in case of numbers left unwritten). */
const NEWEST_READ = 3;

/** Takes the next number of the member's chain for a request about to be written (under their funds lock). */
export async function appendCashOutRequest(userId: string, requestId: string, at: Date): Promise<number> {
  const { n, doc } = await chains.append(userId, (n, previous) => {
    const before = previous.doc?.maxAt ? new Date(previous.doc.maxAt) : null;
    return { n, userId, requestId, at, maxAt: before && before.getTime() > at.getTime() ? before : at };
  });
  await keepHint(CashOutListHeadModel, userId, { n, requestId, maxAt: doc.maxAt });
  return n;
}

/** How many numbers the member's chain holds (its last), read by `_id`. */
export const cashOutListLength = async (userId: string) => (await chains.end(userId, true)).n;

/** Numbers `from`..`to` of a member's chain (both included; those missing are left out), read by `_id` in parallel. */
export async function cashOutListEntries(userId: string, from: number, to: number): Promise<CashOutListEntryDoc[]> {
  if (to < from) return [];
  const read = await Promise.all(
    Array.from({ length: to - from + 1 }, (_, i) => readById<CashOutListEntryDoc>(CashOutListEntryModel, chains.idOf(userId, from + i))),
  );
  return read.filter((entry): entry is CashOutListEntryDoc => entry !== null);
}

/** The member's waiting request, or null: the restore pointer and the chain's newest numbers, read by `_id`. */
export async function pendingCashOutOf(userId: string): Promise<CashOutRequestDoc | null> {
  const [latest, end] = await Promise.all([readById<LatestCashOutDoc>(LatestCashOutModel, userId), cashOutListLength(userId)]);
  const newest = await cashOutListEntries(userId, Math.max(1, end - NEWEST_READ + 1), end);
  const ids = [...new Set([latest?.requestId, ...newest.map((entry) => entry.requestId)].filter((id): id is string => Boolean(id)))];
  const requests = await Promise.all(ids.map((id) => readById<CashOutRequestDoc>(CashOutRequestModel, id)));
  return requests.find((request) => request?.status === 'pending' && String(request.userId) === userId) ?? null;
}

/** Forgets the chains' ends this process remembers (tests that empty the collections). */
export const forgetCashOutLists = () => chains.forget();

// ---------------------------------------------------------------------------------------------------------------
// The kept state: every request once on its member's chain, and every waiting request findable.

const BATCH = 1_000;

type RequestFacts = Pick<CashOutRequestDoc, '_id' | 'userId' | 'at' | 'status'>;

/** Every request in the order they were asked (`at`, then `_id`), a batch at a time. */
const requestsInOrder = () =>
  CashOutRequestModel.find({}, { userId: 1, at: 1, status: 1 })
    .sort({ at: 1, _id: 1 })
    .lean<RequestFacts>()
    .cursor({ batchSize: BATCH }) as unknown as AsyncIterable<RequestFacts>;

async function checkLists(): Promise<KeptStateReport> {
  const differences: string[] = [];
  const chainsOf = new Map<string, CashOutListEntryDoc[]>();
  const entries = CashOutListEntryModel.find({}).lean<CashOutListEntryDoc>().cursor({ batchSize: BATCH });
  for await (const entry of entries as AsyncIterable<CashOutListEntryDoc>) {
    let list = chainsOf.get(entry.userId);
    if (!list) chainsOf.set(entry.userId, (list = []));
    list.push(entry);
  }
  const numberOf = new Map<string, number>();
  for (const [userId, list] of chainsOf) {
    list.sort((a, b) => a.n - b.n);
    let maxAt = 0;
    list.forEach((entry, i) => {
      maxAt = Math.max(maxAt, new Date(entry.at).getTime());
      if (new Date(entry.maxAt).getTime() !== maxAt) noteDifference(differences, `cash-outs of ${userId}: number ${entry.n}'s latest time is not its numbers'`);
      if (entry.n !== i + 1) noteDifference(differences, `cash-outs of ${userId}: number ${i + 1} is missing (the chain has a gap)`);
      if (numberOf.has(entry.requestId)) noteDifference(differences, `cash-outs of ${userId}: request ${entry.requestId} is on the chain twice`);
      numberOf.set(entry.requestId, entry.n);
    });
  }
  let checked = 0;
  const waiting: RequestFacts[] = [];
  for await (const request of requestsInOrder()) {
    checked += 1;
    const userId = String(request.userId);
    const onChain = chainsOf.get(userId)?.some((entry) => entry.requestId === request._id);
    if (!onChain) noteDifference(differences, `cash-outs of ${userId}: request ${request._id} is not on the chain`);
    if (request.status === 'pending') waiting.push(request);
  }
  for (const request of waiting) {
    const userId = String(request.userId);
    const found = await pendingCashOutOf(userId);
    if (found?._id !== request._id) noteDifference(differences, `cash-outs of ${userId}: the waiting request ${request._id} is not found from the chain's end`);
  }
  return { checked, differences };
}

/**
 * Writes every member's chain again from the requests, in the order they were asked, with its end hint; and points
 * each member's latest request at the one that waits, if any (else their newest), so that the waiting one is found.
 */
async function rebuildLists(): Promise<KeptStateReport> {
  const report = await checkLists();
  await Promise.all([CashOutListEntryModel.collection.deleteMany({}), CashOutListHeadModel.collection.deleteMany({})]);
  forgetCashOutLists();
  const ends = new Map<string, { n: number; requestId: string; at: Date; waiting?: string }>();
  let batch: CashOutListEntryDoc[] = [];
  const flush = async () => {
    if (batch.length) await CashOutListEntryModel.collection.insertMany(batch as never[], { ordered: false });
    batch = [];
  };
  for await (const request of requestsInOrder()) {
    const userId = String(request.userId);
    const end = ends.get(userId) ?? { n: 0, requestId: request._id, at: request.at };
    end.n += 1;
    end.requestId = request._id;
    end.at = request.at;
    if (request.status === 'pending') end.waiting = request._id;
    ends.set(userId, end);
    // In the order asked, so each number's latest time is its own.
    batch.push({ _id: chains.idOf(userId, end.n), n: end.n, userId, requestId: request._id, at: request.at, maxAt: request.at });
    if (batch.length === BATCH) await flush();
  }
  await flush();
  const members = [...ends];
  for (let i = 0; i < members.length; i += BATCH) {
    const slice = members.slice(i, i + BATCH);
    await CashOutListHeadModel.collection.insertMany(
      slice.map(([userId, end]) => ({ _id: userId, n: end.n, requestId: end.requestId, maxAt: end.at })) as never[],
      {
        ordered: false,
      },
    );
    await LatestCashOutModel.collection.bulkWrite(
      slice.map(([userId, end]) => ({
        updateOne: { filter: { _id: userId }, update: { $set: { requestId: end.waiting ?? end.requestId } }, upsert: true },
      })) as never[],
      { ordered: false },
    );
  }
  forgetCashOutLists();
  return report;
}

export const cashOutListsState: KeptState = {
  name: 'cash-out-lists',
  describe: "Members' cash-out requests: a chain per member in the order asked (their history pages it), rebuilt from the requests.",
  check: checkLists,
  rebuild: rebuildLists,
};
