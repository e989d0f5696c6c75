/** For tests only: the models, to read and reset what the bids module stores. */
export { BidModel, BidSaleModel } from './bids.model';
