/** Knacks: play sessions, the knack window, and each knack written to the ledger. */
export { knacksRouter } from './knacks.routes';
export { addOutsideReactions, createKnacksService, KNACK_MESSAGES, MIN_CASH_OUT_MICROS, purgeStaleKnackRecords, type KnacksService } from './knacks.service';
