/** Bids: bids on pieces in XLM, one current best per piece, and their sale settled by one Stellar transaction. */
export { bidsRouter } from './bids.routes';
export {
  BID_ACTION_LIMIT,
  BID_LIMIT,
  BID_MESSAGES,
  createBidsService,
  forgetBidChains,
  relistFeeMicros,
  notTheSale,
  SALE_SECONDS,
  type BidsDeps,
  type BidsService,
} from './bids.service';
export { priceToStroops, saleMemoHash, stroopsToPrice, usdMicrosToStroops } from './bids.amounts';
export { bidsExportOf, removeBidsOf, saleEntryIdsOf } from './bids.erasure';
export { bidListsState, forgetBidLists } from './bids.lists';
