/** Knacks and money: play sessions, knacks, the ledger and balances. */
export { knacksRouter } from './knacks.routes';
export { addOutsideReactions, createKnacksService, KNACK_MESSAGES, purgeStaleKnackRecords, type KnacksService } from './knacks.service';
export { hasKnacked, knackKey, knackStatusOf, reactedContentIds, type KnackStatus } from './knacked';
export { balanceOf, creditedBy, knackLegs, post, userAccount, PLATFORM_KNACKS } from './ledger';
export { LedgerEntryModel, type LedgerEntryDoc } from './ledger.model';
