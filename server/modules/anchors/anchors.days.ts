/** UTC days as the daily roots name them (`2026-11-26`), and the Merkle tree of one day's entries. */
import { merkleRoot } from '../../lib/merkle';
import { byEntryId, canonicalEntry, entriesOfDay, type LedgerEntryDoc } from '../ledger';
import { utcDayOf } from '../../lib/calendar';

const DAY_MS = 86_400_000;

/** The UTC day of a time. */
export const dayOf = utcDayOf;

/** The time a UTC day starts. */
export const startOf = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** The UTC day after this one. */
export const dayAfter = (day: string) => dayOf(new Date(startOf(day).getTime() + DAY_MS));

export interface DayTree {
  /** The entries' ids, in leaf order. */
  ids: string[];
  /** Each entry's canonical encoding as UTF-8: the leaves. */
  leaves: Buffer[];
  root: Buffer;
}

/** The tree of entries: each one's canonical encoding, in `_id` order. */
function treeOf(entries: LedgerEntryDoc[]): DayTree {
  entries.sort(byEntryId);
  const leaves = entries.map((entry) => Buffer.from(canonicalEntry(entry), 'utf8'));
  return { ids: entries.map((entry) => entry._id), leaves, root: merkleRoot(leaves) };
}

/**
 * The tree of a day's entries as they are stored now, read by `_id` from the ledger's list of the day (those listed
 * at journal numbers up to `throughSeq`, where the root recorded its position; a root made before the lists holds
 * every entry of its day).
 */
export const treeOfDay = async (day: string, throughSeq?: number): Promise<DayTree> => treeOf(await entriesOfDay(day, throughSeq ?? Infinity));
