/** For the tests only: the journal's own models, and a slot written without its entry (a post that died half-way). */
export { appendJournalSlot, insertJournalSlots, JournalCheckpointModel, JournalSlotModel } from './ledger.journal';
export { ChainHeadModel, PostingClaimModel, PostingModel } from './ledger.postings';

import { forgetLedgerChains } from './ledger.forget';
import { JournalCheckpointModel, JournalSlotModel } from './ledger.journal';
import { LedgerEntryModel } from './ledger.model';
import { ChainHeadModel, PostingClaimModel, PostingModel } from './ledger.postings';

/** Empties the ledger with its journal and running totals, and what this process remembers of them. */
export async function clearLedger(): Promise<void> {
  await Promise.all(
    [LedgerEntryModel, JournalSlotModel, JournalCheckpointModel, PostingModel, PostingClaimModel, ChainHeadModel].map((m) => m.collection.deleteMany({})),
  );
  forgetLedgerChains();
}
