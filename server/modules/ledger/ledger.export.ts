/**
 * A member's part of the ledger for "Download my data": every entry with a leg on their account, and every listing
 * and relisting fee they paid and every payment refunded to them (a card payment has no leg on their balance), read
 * from their own running chains in the ledger's order (ledger.member-entries.ts). Each says what it changed on their
 * balance; the other legs, which are other members' shares and Knack's own accounts, are left out.
 */
import type { Schemas } from '../../lib/openapi-types';
import { microsToUsd } from '../../lib/money';
import { amountFor, userAccount } from './ledger';
import { openMemberEntries } from './ledger.member-entries';

/** Before any entry: the export covers the member's whole history. */
const BEGINNING = new Date(0);

export async function ledgerExportOf(userId: string, now = new Date()): Promise<Schemas['DataExportLedgerEntry'][]> {
  const account = userAccount(userId);
  // Up to the moment after now: an entry written this millisecond is the member's too.
  const { batches } = await openMemberEntries(userId, BEGINNING, new Date(now.getTime() + 1));
  const rows: Schemas['DataExportLedgerEntry'][] = [];
  for await (const batch of batches) {
    for (const entry of batch) {
      // Sales move XLM between the parties' own Stellar accounts, never a member's balance here (the bids export has them).
      if (entry.kind === 'sale') continue;
      const change = amountFor([entry], account);
      rows.push({
        id: entry._id,
        kind: entry.kind,
        at: entry.at.toISOString(),
        contentId: entry.contentId ? String(entry.contentId) : null,
        balanceChange: microsToUsd(change),
        balanceChangeMicros: change,
        amountMicros: entry.amountMicros ?? null,
        method: entry.method ?? null,
      });
    }
  }
  return rows;
}
