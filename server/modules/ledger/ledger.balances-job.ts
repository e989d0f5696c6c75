/**
 * The `ledger-balances` job: a journal consumer (ledger.journal.ts) that makes sure every entry's running totals
 * (ledger.postings.ts) are posted once, and checks each posting against its entry and the posting before it
 * (total after = total before + amount), reading only the entries since its checkpoint. It takes slots at least the
 * journal's grace period old, so that it does not race a post still appending its own postings; what it finds
 * missing is what a crash left (between the entry and its postings, or between a claim and its posting).
 */
import { JOURNAL_GRACE_MS, readJournal, type ReadJournalOptions } from './ledger.journal';
import { movesOf, settleMove } from './ledger.postings';

export const LEDGER_BALANCES_CONSUMER = 'ledger-balances';

export interface LedgerBalancesRun {
  entries: number;
  /** Postings checked and found right. */
  checked: number;
  /** Postings that were missing and are now appended. */
  appended: number;
  /** Postings that disagree with their entry (each a line; none expected). */
  problems: string[];
  checkpoint: number;
}

export async function followLedgerBalances(options: ReadJournalOptions = {}): Promise<LedgerBalancesRun> {
  const run = { checked: 0, appended: 0, problems: [] as string[] };
  const pass = await readJournal(
    LEDGER_BALANCES_CONSUMER,
    async (entries) => {
      const outcomes = await Promise.all(entries.flatMap((entry) => movesOf(entry).map((move) => settleMove(entry, move))));
      for (const outcome of outcomes) {
        if (outcome === 'posted') run.checked += 1;
        else if (outcome === 'appended') run.appended += 1;
        else run.problems.push(outcome);
      }
    },
    // A bounded run: what is left waits for the next minute.
    { minAgeMs: JOURNAL_GRACE_MS, batchSize: 200, maxBatches: 50, ...options },
  );
  return { entries: pass.entries, ...run, checkpoint: pass.checkpoint };
}
