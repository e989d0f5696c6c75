/** The wallet: figures, payout account, cash-out requests, and payouts (monthly job and approved cash-outs). */
export { walletRouter } from './wallet.routes';
export { CASH_OUT_LIST_MESSAGES, CASH_OUT_OVERDUE_MS, listCashOuts } from './cash-outs.admin';
export { checkBalanceSettled, forfeitBalance, forfeitKey, CLOSING_MESSAGES, PLATFORM_FORFEITS } from './wallet.closing';
export {
  createWalletService,
  checkCanRead,
  isSupport,
  piecesById,
  WALLET_MESSAGES,
  type PieceFacts,
  type WalletDeps,
  type WalletService,
} from './wallet.service';
export { cashOutListEntries, cashOutListLength, cashOutListsState, forgetCashOutLists, pendingCashOutOf, type CashOutListEntryDoc } from './cash-outs.lists';
export { supportedFeesOf, walletCollectionsState } from './wallet.collections';
export {
  cashOutKey,
  createPayouts,
  EXTERNAL_PAYOUTS,
  MIN_PAYOUT_MICROS,
  nextPayoutAt,
  paidMonth,
  PAYOUT_CRON,
  payoutFee,
  payoutKey,
  type PayoutFees,
  type Payouts,
  type PayoutsDeps,
  type PayoutSummary,
} from './payouts';
export {
  CashOutRequestModel,
  LatestCashOutModel,
  PayoutSendModel,
  cashOutReads,
  payoutSendReads,
  type CashOutRequestDoc,
  type CashOutStatus,
  type PayoutSendDoc,
} from './wallet.model';
