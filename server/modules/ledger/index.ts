/** The money ledger: every movement of value as one immutable entry whose legs sum to zero, and the balances summed from it. */
export {
  amountFor,
  balanceOf,
  balancesOf,
  chainLength,
  creditedBy,
  entriesOfKind,
  entryById,
  entryExists,
  entriesBetween,
  entriesInOrderFrom,
  firstEntryAt,
  knackEarningsBetween,
  knackEarningsOf,
  knackLegs,
  ledgerSumOf,
  memberTotalsOf,
  memberBalancesFrom,
  pageOfEntries,
  postingsOfFamily,
  post,
  userAccount,
  PLATFORM_KNACKS,
  type PieceEarnings,
  type Posting,
} from './ledger';
export { ledgerExportOf } from './ledger.export';
export { openMemberEntries, type MemberEntries } from './ledger.member-entries';
export {
  JOURNAL_GRACE_MS,
  checkpointOf,
  journalEnd,
  readJournal,
  saveCheckpoint,
  type JournalPass,
  type JournalPosition,
  type ReadJournalOptions,
} from './ledger.journal';
export { entriesOfDay, entriesOfDays, firstListedDay, isDaySettled, ledgerDaysState, syncLedgerDays } from './ledger.days';
export { forgetLedgerChains } from './ledger.forget';
export { ledgerBalancesState, ledgerKeptStates, storeImportedEntries } from './ledger.kept';
export { PAID_KINDS, paidChain, piecesListedBy, postingsOf, type PostingDoc } from './ledger.postings';
export { followLedgerBalances, type LedgerBalancesRun } from './ledger.balances-job';
export { byEntryId, canonicalEntry } from './ledger.canonical';
export { hasKnacked, knackFacts, knackKey, knackStatusOf, reactedContentIds, type KnackStatus } from './knacked';
export { LedgerEntryModel, type LedgerEntryDoc, type LedgerKind, type LedgerLeg } from './ledger.model';
