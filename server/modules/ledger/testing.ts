/** For the tests only: the journal's own models, and a slot written without its entry (a post that died half-way). */
export { appendJournalSlot, insertJournalSlots, JournalCheckpointModel, JournalSlotModel } from './ledger.journal';
