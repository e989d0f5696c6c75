/** For tests only: the models, to read and reset what the bids module stores. */
export { BidModel, BidSaleModel } from './bids.model';
/** For tests that write a bid as the module does: on each member's list before the bid. */
export { noteBidOf } from './bids.lists';
