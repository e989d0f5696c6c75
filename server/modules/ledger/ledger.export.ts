/**
 * A member's part of the ledger for "Download my data": every entry with a leg on their account, every listing
 * and relisting fee they paid and every payment refunded to them (a card payment has no leg on their balance). Each says what it changed on their balance;
 * the other legs, which are other members' shares and Knack's own accounts, are left out.
 */
import type { Schemas } from '../../lib/openapi-types';
import { microsToUsd } from '../../lib/money';
import { amountFor, entriesBy, entriesOfAccount, userAccount } from './ledger';
import type { LedgerEntryDoc } from './ledger.model';

const ALL_FIELDS = {} as const;

export async function ledgerExportOf(userId: string): Promise<Schemas['DataExportLedgerEntry'][]> {
  const account = userAccount(userId);
  const [credited, paid, refunded, relisted] = await Promise.all([
    entriesOfAccount(account, ALL_FIELDS),
    entriesBy('listing', userId, ALL_FIELDS),
    entriesBy('refund', userId, ALL_FIELDS),
    entriesBy('relisting', userId, ALL_FIELDS),
  ]);
  const entries = new Map<string, LedgerEntryDoc>([...credited, ...paid, ...refunded, ...relisted].map((entry) => [entry._id, entry]));
  return (
    [...entries.values()]
      // Sales move XLM between the parties' own Stellar accounts, never a member's balance here.
      .filter((entry): entry is LedgerEntryDoc & { kind: Exclude<LedgerEntryDoc['kind'], 'sale'> } => entry.kind !== 'sale')
      .sort((a, b) => a.at.getTime() - b.at.getTime() || a._id.localeCompare(b._id))
      .map((entry) => {
        const change = amountFor([entry], account);
        return {
          id: entry._id,
          kind: entry.kind,
          at: entry.at.toISOString(),
          contentId: entry.contentId ? String(entry.contentId) : null,
          balanceChange: microsToUsd(change),
          balanceChangeMicros: change,
          amountMicros: entry.amountMicros ?? null,
          method: entry.method ?? null,
        };
      })
  );
}
