/**
 * What must hold in the database whatever happened before (a crash, a retry, a race): each check answers the
 * problems it found, as readable lines, so a test asserts `toEqual([])` and a failure says what broke. Read straight
 * from the collections, as stored, without the app's code in between.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import request from 'supertest';
import { keptStates } from '../../server/jobs/kept-states';

interface Leg {
  account: string;
  amountMicros: number;
}
interface Entry {
  _id: string;
  kind: string;
  actorId: mongoose.Types.ObjectId | null;
  contentId: mongoose.Types.ObjectId | null;
  method?: string | null;
  legs: Leg[];
  accounts: string[];
}

const collection = (name: string) => mongoose.connection.collection(name);
const entries = () => collection('ledger_entries').find({}).toArray() as unknown as Promise<Entry[]>;

/** Every entry's legs are whole and sum to zero, and its `accounts` are exactly its legs' accounts. */
export async function ledgerProblems(): Promise<string[]> {
  const problems: string[] = [];
  for (const entry of await entries()) {
    const sum = entry.legs.reduce((total, leg) => total + leg.amountMicros, 0);
    if (entry.legs.some((leg) => !Number.isSafeInteger(leg.amountMicros))) problems.push(`${entry._id}: a leg is not whole micro-dollars`);
    if (sum !== 0) problems.push(`${entry._id}: legs sum to ${sum}`);
    const named = [...new Set(entry.legs.map((leg) => leg.account))].sort();
    if (JSON.stringify(named) !== JSON.stringify([...entry.accounts].sort()))
      problems.push(`${entry._id}: accounts ${entry.accounts.join(',')} are not its legs'`);
  }
  return problems;
}

/** An account's balance, summed from every leg of the ledger. */
export async function ledgerBalance(account: string): Promise<number> {
  return (await entries()).reduce((sum, entry) => sum + entry.legs.reduce((legs, leg) => legs + (leg.account === account ? leg.amountMicros : 0), 0), 0);
}

/** The ledger entries with these keys (to count what was written once). */
export async function entriesWithIds(ids: string[]): Promise<Entry[]> {
  return (await entries()).filter((entry) => ids.includes(entry._id));
}

/** Locks and leases (`mutexes`) still there although expired at `now`: a dead holder's, left for ever. */
export async function expiredLocks(now: Date): Promise<string[]> {
  const left = await collection('mutexes').find({}).toArray();
  return left
    .filter((lock) => (lock.expiresAt as Date).getTime() <= now.getTime())
    .map((lock) => `${String(lock._id)} (expired ${(lock.expiresAt as Date).toISOString()})`);
}

/**
 * A piece is monetized whole or not at all: each listing entry's piece is marked paid out by the entry's payer, and
 * each piece marked paid out has its listing entry.
 */
export async function halfMonetizedPieces(): Promise<string[]> {
  const listings = (await entries()).filter((entry) => entry.kind === 'listing');
  const pieces = await collection('contents')
    .find({}, { projection: { isPaidOut: 1, payerId: 1 } })
    .toArray();
  const problems: string[] = [];
  const byPiece = new Map(listings.map((entry) => [String(entry.contentId), entry]));
  for (const piece of pieces) {
    const listing = byPiece.get(String(piece._id));
    if (listing && (!piece.isPaidOut || String(piece.payerId) !== String(listing.actorId)))
      problems.push(`piece ${String(piece._id)}: listed in the ledger, not marked paid out by its payer`);
    if (!listing && piece.isPaidOut) problems.push(`piece ${String(piece._id)}: marked paid out without a listing entry`);
  }
  return problems;
}

/**
 * Each member's kept credits equal the sum of their credit movements, and no piece has used more credits than it
 * has listings paid by a credit (a use given back counts for nothing).
 */
export async function creditProblems(): Promise<string[]> {
  const movements = await collection('credit_movements').find({}).toArray();
  const exts = await collection('user_exts')
    .find({}, { projection: { userId: 1, sCredit: 1, pCredit: 1 } })
    .toArray();
  const sums = new Map<string, { standard: number; premium: number }>();
  for (const movement of movements) {
    const sum = sums.get(String(movement.userId)) ?? { standard: 0, premium: 0 };
    sum.standard += movement.standard as number;
    sum.premium += movement.premium as number;
    sums.set(String(movement.userId), sum);
  }
  const problems: string[] = exts.filter((ext) => ext.pendingCreditMovement).map((ext) => `member ${String(ext.userId)}: a credit movement left pending`);
  for (const [userId, sum] of sums) {
    const ext = exts.find((e) => String(e.userId) === userId);
    const kept = { standard: (ext?.sCredit as number | undefined) ?? 0, premium: (ext?.pCredit as number | undefined) ?? 0 };
    if (kept.standard !== sum.standard || kept.premium !== sum.premium) {
      problems.push(`member ${userId}: keeps ${kept.standard}/${kept.premium} credits, movements sum to ${sum.standard}/${sum.premium}`);
    }
  }
  const creditListings = new Set(
    (await entries()).filter((entry) => entry.kind === 'listing' && entry.method?.endsWith('-credit')).map((entry) => String(entry.contentId)),
  );
  const usedPerPiece = new Map<string, number>();
  for (const movement of movements) {
    if (movement.reason !== 'listing' && movement.reason !== 'listing-undone') continue;
    const piece = String(movement.ref);
    usedPerPiece.set(piece, (usedPerPiece.get(piece) ?? 0) - (movement.standard as number) - (movement.premium as number));
  }
  for (const [piece, used] of usedPerPiece) {
    const listed = creditListings.has(piece) ? 1 : 0;
    if (used !== listed) problems.push(`piece ${piece}: ${used} credit(s) used, ${listed} listing paid by a credit`);
  }
  return problems;
}

/**
 * Every payout or cash-out recorded is posted once, sent once (one file of the sandbox provider in `sandboxDir`) and
 * marked sent; the request it pays is no longer waiting.
 */
export async function payoutProblems(sandboxDir: string): Promise<string[]> {
  const sends = await collection('payout_sends').find({}).toArray();
  const posted = new Set((await entries()).map((entry) => entry._id));
  const files = existsSync(sandboxDir) ? readdirSync(sandboxDir) : [];
  const problems: string[] = [];
  for (const send of sends) {
    const id = String(send._id);
    if (!posted.has(id)) problems.push(`${id}: recorded, not in the ledger`);
    if (send.status !== 'sent') problems.push(`${id}: not marked sent`);
    const sent = files.filter((file) => file === path.basename(`${id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`)).length;
    if (sent !== 1) problems.push(`${id}: sent ${sent} times`);
    if (send.requestId) {
      const paid = await collection('cash_out_requests').findOne({ _id: send.requestId as unknown as mongoose.mongo.BSON.ObjectId });
      if (paid?.status === 'pending') problems.push(`${id}: its request ${String(send.requestId)} still waits`);
    }
  }
  return problems;
}

/** The ledger's kept states (its journal and running totals: server/modules/ledger/ledger.kept.ts), each check's differences by name. */
export async function ledgerKeptProblems(): Promise<Record<string, string[]>> {
  const states = keptStates.filter((state) =>
    ['ledger-journal', 'ledger-balances', 'piece-earnings', 'reacted-pieces', 'listing-fees-paid'].includes(state.name),
  );
  return Object.fromEntries(await Promise.all(states.map(async (state) => [state.name, (await state.check()).differences] as const)));
}

/**
 * The members' kept lists: current plans, credit movements, cash-out chains, collections snapshots, and the lists of
 * their bids, mints, product events and card orders (their checks' differences).
 */
export async function memberKeptListProblems(): Promise<string[]> {
  const names = [
    'current-plans',
    'credit-movement-lists',
    'cash-out-lists',
    'wallet-collections',
    'bid-lists',
    'nft-mint-lists',
    'product-event-lists',
    'payment-order-lists',
  ];
  const states = keptStates.filter((state) => names.includes(state.name));
  return (await Promise.all(states.map(async (state) => (await state.check()).differences.map((line) => `${state.name}: ${line}`)))).flat();
}

/** Every check above at once; `now` is the clock of the process that ran the jobs after the crash. */
export async function invariantProblems({ now, sandboxDir }: { now: Date; sandboxDir: string }): Promise<string[]> {
  return [
    ...(await ledgerProblems()),
    ...(await halfMonetizedPieces()),
    ...(await creditProblems()),
    ...(await payoutProblems(sandboxDir)),
    ...(await expiredLocks(now)),
    ...Object.values(await ledgerKeptProblems()).flat(),
    ...(await memberKeptListProblems()),
  ];
}

/** What the member sees of their money through the API: their wallet's balance, which must equal the ledger's. */
export async function walletBalanceSeen(url: string, member: { id: string; token: string }): Promise<number> {
  const res = await request(url)
    .get(`/api/v2/wallet/summary/${member.id}`)
    .set({ Authorization: `Bearer ${member.token}` })
    .expect(200);
  return res.body.balanceMicros as number;
}
