/** Writing to and reading from the ledger (ledger.model.ts). */
import { isDuplicateKey } from '../../lib/mutex';
import { insertWhole } from '../../lib/query';
import { LedgerEntryModel, type LedgerEntryDoc, type LedgerLeg } from './ledger.model';

export const userAccount = (userId: unknown) => `user:${String(userId)}`;
export const PLATFORM_KNACKS = 'platform:knacks';

/** Spec §9: the supporter who paid gets 10% of what a piece earns, the owner the rest (all when the same). */
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
 * concurrent twin) writes nothing and answers the original entry.
 */
export async function post(entry: Omit<LedgerEntryDoc, 'accounts'>): Promise<Posting> {
  if (entry.legs.some((leg) => !Number.isSafeInteger(leg.amountMicros))) throw new RangeError(`${entry._id}: legs must be whole micro-dollars`);
  if (entry.legs.reduce((sum, leg) => sum + leg.amountMicros, 0) !== 0) throw new RangeError(`${entry._id}: legs must sum to zero`);
  const doc = { ...entry, accounts: [...new Set(entry.legs.map((leg) => leg.account))] };
  try {
    // Every field written here (post is the ledger's one writer), straight through the driver (lib/query.ts).
    await insertWhole(LedgerEntryModel, { method: null, amountMicros: null, ref: null, ...doc });
    return { entry: doc, created: true };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const original = await LedgerEntryModel.findById(entry._id).lean<LedgerEntryDoc>();
    if (!original) throw err;
    return { entry: original, created: false };
  }
}

/** What an entry credited in all: the sum of its positive legs (for a knack, the value it paid out). */
export const creditedBy = (entry: Pick<LedgerEntryDoc, 'legs'>) => entry.legs.reduce((sum, leg) => sum + Math.max(0, leg.amountMicros), 0);

/** What the legs of `entries` bring to `account`. */
export const amountFor = (entries: Pick<LedgerEntryDoc, 'legs'>[], account: string) =>
  entries.reduce((sum, entry) => sum + entry.legs.reduce((legs, leg) => legs + (leg.account === account ? leg.amountMicros : 0), 0), 0);

/** An account's balance: the sum of its legs over the whole ledger. */
export async function balanceOf(account: string): Promise<number> {
  const entries = await LedgerEntryModel.find({ accounts: account }, { legs: 1 }).lean<Pick<LedgerEntryDoc, 'legs'>[]>();
  return amountFor(entries, account);
}
