/**
 * Writing to and reading from the ledger (ledger.model.ts). This module is the ledger's only writer (post) and
 * reader: knacks, listing fees, payouts, the wallet and the history go through the functions here.
 */
import { Types } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { anyOf, insertWhole, ours, readById } from '../../lib/query';
import { appendJournalSlot } from './ledger.journal';
import { ChainHeadModel, chainTotals, PostingModel, pieceChain, postMoves, type PostingDoc } from './ledger.postings';
import { LedgerEntryModel, type LedgerEntryDoc, type LedgerKind, type LedgerLeg } from './ledger.model';

export const userAccount = (userId: unknown) => `user:${String(userId)}`;
export const PLATFORM_KNACKS = 'platform:knacks';

/** The supporter who paid a piece's listing fee gets 10% of what it earns, the owner the rest (all when the same). */
const PAYER_PERCENT = 10;

/**
 * The legs of a knack worth `valueMicros` on a piece of `ownerId` paid out by `payerId`: the payer's 10% is
 * rounded down to the micro-dollar and the owner gets the rest, so the credits always sum to the value.
 */
export function knackLegs(valueMicros: number, ownerId: string, payerId: string | null): LedgerLeg[] {
  if (!Number.isSafeInteger(valueMicros) || valueMicros < 0) throw new RangeError(`Not a knack value: ${valueMicros}`);
  if (valueMicros === 0) return [];
  const payerShare = payerId && payerId !== ownerId ? Math.floor((valueMicros * PAYER_PERCENT) / 100) : 0;
  return [
    { account: PLATFORM_KNACKS, amountMicros: -valueMicros },
    { account: userAccount(ownerId), amountMicros: valueMicros - payerShare },
    ...(payerShare ? [{ account: userAccount(payerId), amountMicros: payerShare }] : []),
  ];
}

export interface Posting {
  entry: LedgerEntryDoc;
  /** False when an entry with this key already existed: `entry` is that original. */
  created: boolean;
}

/**
 * Posts one movement. Its legs must be whole micro-dollars summing to zero. A duplicate key (a retry, a
 * concurrent twin) writes nothing more and answers the original entry.
 *
 * Each entry is first written to the journal (ledger.journal.ts: a numbered slot holding the whole entry), then
 * inserted carrying the slot's number as `seq`: a crash between the two leaves a slot that the journal's readers
 * complete once its grace period is over, so an entry is never lost from the journal nor written twice.
 */
export async function post(entry: Omit<LedgerEntryDoc, 'accounts' | 'seq'>): Promise<Posting> {
  if (entry.legs.some((leg) => !Number.isSafeInteger(leg.amountMicros))) throw new RangeError(`${entry._id}: legs must be whole micro-dollars`);
  if (entry.legs.reduce((sum, leg) => sum + leg.amountMicros, 0) !== 0) throw new RangeError(`${entry._id}: legs must sum to zero`);
  // A retry of a movement already posted writes nothing, not even a slot.
  const existing = await entryById(entry._id);
  if (existing) return { entry: existing, created: false };
  // Every field written here (post is the ledger's one writer), straight through the driver (lib/query.ts).
  const whole = { method: null, amountMicros: null, ref: null, ...entry, accounts: [...new Set(entry.legs.map((leg) => leg.account))] };
  const seq = await appendJournalSlot(whole);
  faultPoint(FAULT_POINTS.ledgerAfterSlot);
  const doc: LedgerEntryDoc = { ...whole, seq };
  try {
    await insertWhole(LedgerEntryModel, doc);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // A concurrent twin (or the journal's completion of an earlier slot) won: this slot is a dud.
    const original = await entryById(entry._id);
    if (!original) throw err;
    return { entry: original, created: false };
  }
  faultPoint(FAULT_POINTS.ledgerAfterEntry);
  // Only the winner of the entry's insert posts its running totals (ledger.postings.ts); what a crash leaves undone
  // here, the ledger-balances job finishes.
  await postMoves(doc);
  return { entry: doc, created: true };
}

/** What an entry credited in all: the sum of its positive legs (for a knack, the value it paid out). */
export const creditedBy = (entry: Pick<LedgerEntryDoc, 'legs'>) => entry.legs.reduce((sum, leg) => sum + Math.max(0, leg.amountMicros), 0);

/** What the legs of `entries` bring to `account`. */
export const amountFor = (entries: Pick<LedgerEntryDoc, 'legs'>[], account: string) =>
  entries.reduce((sum, entry) => sum + entry.legs.reduce((legs, leg) => legs + (leg.account === account ? leg.amountMicros : 0), 0), 0);

/**
 * An account's balance. A member's (`user:{id}`) is the end of their running balance (ledger.postings.ts): a few reads
 * by `_id`, whatever their history. Knack's own accounts have no running balance (every knack moves one of them, and a
 * chain would make every post wait for every other); only admins read them, as the sum of the ledger.
 *
 * The running balance trails an entry for as long as its post takes to append the posting (or, after a crash, until
 * the ledger-balances job does). What it shows a member is fine to trail; a decision that moves money (a payout, a
 * cash-out, closing an account) uses `ledgerSumOf` instead: a payout whose posting had not landed yet would leave
 * the balance too high, and paying from it could pay twice.
 */
export async function balanceOf(account: string): Promise<number> {
  if (account.startsWith('user:')) return (await chainTotals(account)).totalMicros;
  return ledgerSumOf(account);
}

/**
 * An account's balance summed from every entry with a leg on it: exact the moment an entry is inserted. For the
 * decisions that move money (under the member's funds lock): on MongoDB the `accounts` index reads only the member's
 * entries; FerretDB reads the whole ledger (rare calls: a monthly payout per member, a cash-out, an account closing).
 */
export async function ledgerSumOf(account: string): Promise<number> {
  const entries = await LedgerEntryModel.find({ accounts: account }, { legs: 1 }).lean<Pick<LedgerEntryDoc, 'legs'>[]>();
  return amountFor(entries, account);
}

/** A member's running totals (ledger.postings.ts): their balance, what knacks of their own pieces brought, what was paid out. */
export async function memberTotalsOf(userId: string): Promise<{ balanceMicros: number; uploadsMicros: number; paidOutMicros: number }> {
  const totals = await chainTotals(userAccount(userId));
  return { balanceMicros: totals.totalMicros, uploadsMicros: totals.uploadsMicros, paidOutMicros: totals.paidOutMicros };
}

/** How many postings a chain holds (ledger.postings.ts: `user:{id}`, `paid:{id}`…): its last number, read by `_id`. */
export async function chainLength(chain: string): Promise<number> {
  return (await chainTotals(chain)).n;
}

/**
 * Every posting of the chains whose name starts with `prefix` (`paid:`), streamed in no order: for the kept states
 * built on a family of chains (a check or rebuild, never a request).
 */
export const postingsOfFamily = (prefix: string) =>
  PostingModel.find(ours({ _id: { $regex: `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` } }))
    .lean<PostingDoc>()
    .cursor({ batchSize: 1_000 }) as unknown as AsyncIterable<PostingDoc>;

/** One entry by its key, straight through the driver (lib/query.ts): the knack path reads it on every knack. */
export const entryById = (id: string) => readById<LedgerEntryDoc>(LedgerEntryModel, id);

/** Whether an entry with this key exists. */
export const entryExists = async (id: string) => Boolean(await LedgerEntryModel.exists({ _id: id }));

/** Every entry of a kind, with the fields asked (the rankings job recounts reactions from the knacks). */
export const entriesOfKind = (kind: LedgerKind, fields: Partial<Record<keyof LedgerEntryDoc, 1 | 0>>) =>
  LedgerEntryModel.find({ kind }, fields).lean<LedgerEntryDoc[]>();

/**
 * What a piece's knacks have credited so far, owner and payer together: the end of the piece's running total
 * (ledger.postings.ts), a few reads by `_id`.
 */
export async function knackEarningsOf(contentId: Types.ObjectId): Promise<number> {
  return (await chainTotals(pieceChain(contentId))).totalMicros;
}

/**
 * One page of entries, in `sort` order from the position `after` (a filter the caller's cursor built): those a
 * member made of some kinds (`actorId`), or those with a leg on an account.
 */
export function pageOfEntries(
  match: { kinds: LedgerKind[]; actorId?: string; account?: string },
  after: Record<string, unknown>,
  sort: Record<string, 1 | -1>,
  limit: number,
) {
  const filter = ours({
    kind: anyOf(match.kinds),
    ...(match.actorId ? { actorId: new Types.ObjectId(match.actorId) } : {}),
    ...(match.account ? { accounts: match.account } : {}),
    ...after,
  });
  return LedgerEntryModel.find(filter).sort(sort).limit(limit).lean<LedgerEntryDoc[]>();
}

/** The ledger's order: by time, then by key (the order of entries written at the same instant). */
export const LEDGER_ORDER: Record<string, 1> = { at: 1, _id: 1 };

/** How many members' running balances the payouts' look-up reads at once (each a few reads by `_id`). */
const BALANCES_AT_ONCE = 50;

/**
 * Every member whose running balance is at least `minMicros` (`user:{id}` with that balance), for the monthly payouts:
 * read from the members' kept running balances (ledger.postings.ts), never from the ledger's entries, so that its
 * work grows with the number of members who ever had a posting, not with the ledger's history. It lists their chains'
 * head hints (`ledger_heads`, `_id` from `user:`: a range of the `_id` index on MongoDB, one read of the heads on
 * FerretDB), then reads each chain's end by `_id` from its hint. A running balance may trail an entry by the time its
 * post takes to append the posting (or, after a crash, until the ledger-balances job does): the payouts decide the
 * amount from `ledgerSumOf` under the member's funds lock, and a member a trailing balance leaves out is paid the
 * next month.
 */
export async function memberBalancesFrom(minMicros: number): Promise<{ _id: string; balanceMicros: number }[]> {
  const found: { _id: string; balanceMicros: number }[] = [];
  let batch: string[] = [];
  const readBatch = async () => {
    const totals = await Promise.all(batch.map((chain) => chainTotals(chain)));
    batch.forEach((chain, i) => {
      if (totals[i]!.totalMicros >= minMicros) found.push({ _id: chain, balanceMicros: totals[i]!.totalMicros });
    });
    batch = [];
  };
  // `user;` is the first text after every `user:…` one (';' follows ':'), so the range holds exactly the members' chains.
  const heads = ChainHeadModel.collection.find({ _id: { $gte: 'user:', $lt: 'user;' } } as object, { projection: { _id: 1 }, batchSize: 1_000 });
  for await (const head of heads) {
    const chain = String(head._id);
    if (chain.includes('|')) continue; // a snapshot kept beside a chain, not a chain's end
    batch.push(chain);
    if (batch.length >= BALANCES_AT_ONCE) await readBatch();
  }
  await readBatch();
  return found;
}

/**
 * The balances of a few accounts (a page of a list) in one read: each account's sum, 0 for one without entries. On
 * MongoDB the `accounts` index reads only their entries; FerretDB reads the whole ledger once, not once per account.
 */
export async function balancesOf(accounts: string[]): Promise<Map<string, number>> {
  const balances = new Map(accounts.map((account) => [account, 0]));
  if (!accounts.length) return balances;
  const sums = await LedgerEntryModel.aggregate<{ _id: string; balanceMicros: number }>([
    { $match: { accounts: anyOf(accounts) } },
    { $unwind: '$legs' },
    { $match: { 'legs.account': anyOf(accounts) } },
    { $group: { _id: '$legs.account', balanceMicros: { $sum: '$legs.amountMicros' } } },
  ]);
  for (const sum of sums) balances.set(sum._id, sum.balanceMicros);
  return balances;
}

/**
 * Every entry whose `at` is in [from, to), every stored field (the daily roots read a closed day). On MongoDB the
 * `at` index makes this a read of that span; FerretDB reads the whole collection for it (a daily job, not a request).
 */
export const entriesBetween = (from: Date, to: Date) => LedgerEntryModel.find(ours({ at: { $gte: from, $lt: to } })).lean<LedgerEntryDoc[]>();

/**
 * Every entry of `kinds` from `from` on, in the ledger's order, as a cursor read in batches: one pass over the
 * ledger for a recount of all its history (the rollups' rebuild), where a read per span would read the whole
 * collection once per span on FerretDB.
 */
export function entriesInOrderFrom(from: Date, kinds: LedgerKind[], batchSize = 1_000): AsyncIterable<LedgerEntryDoc> {
  return LedgerEntryModel.find(ours({ kind: anyOf(kinds), at: { $gte: from } }))
    .sort(LEDGER_ORDER)
    .lean<LedgerEntryDoc>()
    .cursor({ batchSize });
}

/** When the first entry of all was written, or null for an empty ledger (where the daily roots start). */
export async function firstEntryAt(): Promise<Date | null> {
  const [first] = await LedgerEntryModel.find({}, { at: 1 }).sort({ at: 1 }).limit(1).lean<Pick<LedgerEntryDoc, 'at'>[]>();
  return first?.at ?? null;
}

/** What the knacks of one piece brought one account over a period. */
export interface PieceEarnings {
  /** The knacks that credited the account. */
  knacks: number;
  /** Their whole value (owner and supporter together). */
  grossMicros: number;
  /** What they credited the account. */
  shareMicros: number;
}

/**
 * Each of a few accounts' knack earnings in [from, to), piece by piece: account -> piece id -> figures. The entries
 * are streamed, so memory holds only these accounts' pieces; on MongoDB the `accounts, at` index reads only their
 * entries of the period, while FerretDB reads the ledger once per call (a monthly job's page of members).
 */
export async function knackEarningsBetween(accounts: string[], from: Date, to: Date): Promise<Map<string, Map<string, PieceEarnings>>> {
  const wanted = new Set(accounts);
  const earnings = new Map<string, Map<string, PieceEarnings>>();
  if (!accounts.length) return earnings;
  const cursor = LedgerEntryModel.find(ours({ kind: 'knack', accounts: anyOf(accounts), at: { $gte: from, $lt: to } }), { contentId: 1, legs: 1 })
    .lean<LedgerEntryDoc>()
    .cursor();
  for await (const entry of cursor as AsyncIterable<Pick<LedgerEntryDoc, 'contentId' | 'legs'>>) {
    const gross = creditedBy(entry);
    const piece = String(entry.contentId);
    for (const leg of entry.legs) {
      if (!wanted.has(leg.account) || leg.amountMicros <= 0) continue;
      let pieces = earnings.get(leg.account);
      if (!pieces) earnings.set(leg.account, (pieces = new Map<string, PieceEarnings>()));
      const row = pieces.get(piece) ?? { knacks: 0, grossMicros: 0, shareMicros: 0 };
      row.knacks += 1;
      row.grossMicros += gross;
      row.shareMicros += leg.amountMicros;
      pieces.set(piece, row);
    }
  }
  return earnings;
}
