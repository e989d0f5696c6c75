/**
 * History: a member's Paid0 / Paid1 / Earn / Payout items, derived from the ledger and cash-out requests, and their
 * statement file of a period (history.statement.ts, served by the history router).
 */
export { historyRouter } from './history.routes';
export { createHistoryService, type HistoryItem, type HistoryService } from './history.service';
