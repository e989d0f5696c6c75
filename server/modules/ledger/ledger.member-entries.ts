/**
 * A member's ledger entries written in a period, in the ledger's order (by time, then by key), read from the member's
 * own running chains (ledger.postings.ts) by `_id`, never by a pass over the ledger:
 * - `user:{id}`, their balance: every entry with a leg on their account, each posting holding the balance after it;
 * - `paid:{id}`, the fees they paid that move no balance of theirs (listing and relisting fees, refunds);
 * - and the entries the caller names besides (a member's sales in XLM, which the bids know).
 * So the member's statement and data export read the member's postings from the period's start on: their work grows
 * with what the member did since then, not with the ledger.
 *
 * A chain is in the order its postings were appended. That is time order, except where appends raced (entries of the
 * same moment) or a repair appended a posting late (the ledger-balances job, after a crash). So:
 * - where a period starts on a chain is found by halving on `maxAt` (the latest time of a posting and of every one
 *   below it): every posting before the first whose `maxAt` reaches the start is earlier than the start;
 * - a chain's edge at a time is where `REORDER` postings in a row are at or after it: the opening balance counts the
 *   postings before the start found up to there, and the reading of a chain stops there past the period's end;
 * - entries are handed out through a buffer of `REORDER` entries sorted by time, from the chain that is behind, so
 *   that a posting a little out of time order still comes out in order.
 * A posting appended more than `REORDER` postings away from its place in time (only a repair, for a member with that
 * many entries meanwhile) is still counted, where it was appended, by every read of the member's balance; a period
 * that it falls in at the period's edge can leave it out.
 */
import type { LedgerEntryDoc } from './ledger.model';
import { entryById, userAccount } from './ledger';
import { chainTotals, paidChain, postingsOf, readPosting, type PostingDoc } from './ledger.postings';

/** Postings or entries read at once (by `_id`, in parallel), and the out-of-order slack described above. */
const WINDOW = 100;
export const REORDER = 500;

/** The latest time of a posting and of those below it; a posting written before `maxAt` was kept may not know it. */
const latestUpTo = (posting: PostingDoc | null) => (posting?.maxAt ? new Date(posting.maxAt).getTime() : null);

/**
 * The first number of `chain` (1..length+1) from which a posting can be at or after `at`: halving on `maxAt`. A
 * posting without `maxAt` (or missing) counts as reaching it, which can only start the reading earlier, never late.
 */
async function firstReaching(chain: string, at: number, length: number): Promise<number> {
  let low = 1;
  let high = length + 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const latest = latestUpTo(await readPosting(chain, middle));
    if (latest === null || latest >= at) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** One chain read forward a window at a time from a number, up to its length when the reading began. */
function chainCursor(chain: string, from: number, length: number) {
  let next = from;
  /** How many postings in a row, last read, are at or after the time the caller watches for (`edge`). */
  let atOrAfterInARow = 0;
  let watched: number | null = null;
  return {
    chain,
    /** The latest time read so far (ms): unread postings are at or after it, but for the out-of-order slack. */
    reached: -Infinity,
    done: from > length,
    /** The next window, and whether `REORDER` postings in a row are now at or after `edge` (ms). */
    async read(edge: number): Promise<{ postings: PostingDoc[]; pastEdge: boolean }> {
      if (edge !== watched) [watched, atOrAfterInARow] = [edge, 0];
      const to = Math.min(length, next + WINDOW - 1);
      const postings = await postingsOf(chain, next, to);
      next = to + 1;
      for (const posting of postings) {
        const at = new Date(posting.at).getTime();
        atOrAfterInARow = at >= edge ? atOrAfterInARow + 1 : 0;
        this.reached = Math.max(this.reached, latestUpTo(posting) ?? at);
      }
      if (next > length) this.done = true;
      return { postings, pastEdge: atOrAfterInARow >= REORDER };
    },
  };
}

export interface MemberEntries {
  /** The member's balance just before the period. */
  openingMicros: number;
  /** The period's entries in the ledger's order, a batch at a time; each entry once. */
  batches: AsyncGenerator<LedgerEntryDoc[]>;
}

const byLedgerOrder = (a: { at: number; id: string }, b: { at: number; id: string }) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The entries of `userId` written in [from, to) (see above), with `extraEntryIds` (entries of the member found
 * elsewhere: read by `_id`, kept when in the period). The opening balance and the chains' starts are read before this
 * answers, so that a failed read is an error, not a file cut short; the entries are read as the batches are taken.
 */
export async function openMemberEntries(userId: string, from: Date, to: Date, extraEntryIds: string[] = []): Promise<MemberEntries> {
  const start = from.getTime();
  const end = to.getTime();
  const balanceChain = userAccount(userId);
  const chains = [balanceChain, paidChain(userId)];
  const lengths = await Promise.all(chains.map(async (chain) => (await chainTotals(chain)).n));
  const firsts = await Promise.all(chains.map((chain, i) => firstReaching(chain, start, lengths[i]!)));
  const cursors = chains.map((chain, i) => chainCursor(chain, firsts[i]!, lengths[i]!));

  // The balance up to the first posting that can be in the period, then the postings before the start found past it.
  const before = firsts[0]! > 1 ? await readPosting(balanceChain, firsts[0]! - 1) : null;
  let openingMicros = before?.totalMicros ?? 0;
  const buffered = new Map<string, { at: number; id: string }>();
  const take = (postings: PostingDoc[]) => {
    for (const posting of postings) {
      const at = new Date(posting.at).getTime();
      if (at >= start && at < end) buffered.set(posting.entryId, { at, id: posting.entryId });
    }
  };
  for (const cursor of cursors) {
    while (!cursor.done) {
      const { postings, pastEdge } = await cursor.read(start);
      if (cursor.chain === balanceChain) {
        for (const posting of postings) if (new Date(posting.at).getTime() < start) openingMicros += posting.amountMicros;
      }
      take(postings);
      if (pastEdge) break;
    }
  }
  const extras = await Promise.all(extraEntryIds.map(entryById));
  for (const entry of extras) {
    const at = entry?.at.getTime();
    if (entry && at !== undefined && at >= start && at < end) buffered.set(entry._id, { at, id: entry._id });
  }

  async function* batches(): AsyncGenerator<LedgerEntryDoc[]> {
    const given = new Set<string>();
    const active = () => cursors.filter((cursor) => !cursor.done);
    for (;;) {
      const reading = active();
      // Entries are given once no chain still being read is behind them, keeping REORDER back for late postings.
      const behind = reading.length ? Math.min(...reading.map((cursor) => cursor.reached)) : Infinity;
      const ready = [...buffered.values()].sort(byLedgerOrder);
      const keep = reading.length ? REORDER : 0;
      const out = ready.slice(0, Math.max(0, ready.length - keep)).filter((item) => item.at <= behind);
      if (out.length) {
        for (let i = 0; i < out.length; i += WINDOW) {
          const part = out.slice(i, i + WINDOW);
          for (const item of part) {
            buffered.delete(item.id);
            given.add(item.id);
          }
          const entries = await Promise.all(part.map((item) => entryById(item.id)));
          yield entries.filter((entry): entry is LedgerEntryDoc => entry !== null);
        }
        continue;
      }
      if (!reading.length) return;
      // Read on the chain that is furthest behind in time, so that the chains move through the period together.
      const cursor = reading.reduce((a, b) => (b.reached < a.reached ? b : a));
      const { postings, pastEdge } = await cursor.read(end);
      take(postings.filter((posting) => !given.has(posting.entryId)));
      if (pastEdge) cursor.done = true;
    }
  }

  return { openingMicros, batches: batches() };
}
