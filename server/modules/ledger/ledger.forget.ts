/** What this process remembers of the ledger's chains, forgotten by tests that empty the collections under a running app. */
import { forgetJournal } from './ledger.journal';
import { forgetPostingChains } from './ledger.postings';

export function forgetLedgerChains(): void {
  forgetJournal();
  forgetPostingChains();
}
