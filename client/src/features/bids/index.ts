/**
 * features/bids: buying and selling pieces in XLM. The buy/sell panel of the content detail (bid, sell the current
 * bid, sign the sale's one Stellar transaction with the member's own wallet), and the pages of the links in a
 * bidder's inbox (`/approve?token=…`, `/cancel?token=…`), which also serve the subscription checkout's return. All
 * lazy: the wallet's code (the stellar feature) loads with them, never with the page frame.
 */
/** The buy/sell panel of a piece (the detail modal's side). */
export const loadBidPanel = () => import('./components/BidPanel');
/** `/approve` and `/cancel`: a bid's link (`?token=`) or the return from a subscription checkout (`?subscription=`). */
export const loadReturnLinkPage = () => import('./pages/ReturnLinkPage');
