import { Schema, model } from 'mongoose';

/**
 * Bids on a piece form a numbered chain: `_id` = `{contentId}:{n}`, n = 1, 2, 3… Each bid is taken by inserting the
 * next number, so of bids sent at once each one is checked against the one before it, and the latest bid not
 * withdrawn is the piece's one current best. A sold bid closes what came before it: bidding starts again after it.
 */
const bidSchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: String, required: true },
    biderId: { type: String, required: true },
    /** The price in stroops (1e-7 XLM). */
    priceStroops: { type: Number, required: true },
    unit: { type: String, enum: ['xlm'], required: true },
    createdAt: { type: Date, required: true },
    deleted: { type: Boolean, default: false },
    sold: { type: Boolean, default: false },
    soldAt: { type: Date, default: null },
    sellerId: { type: String, default: null },
    transactionHash: { type: String, default: null },
  },
  { versionKey: false },
);
bidSchema.index({ biderId: 1 });

export interface BidDoc {
  _id: string;
  contentId: string;
  biderId: string;
  priceStroops: number;
  unit: 'xlm';
  createdAt: Date;
  deleted: boolean;
  sold: boolean;
  soldAt: Date | null;
  sellerId: string | null;
  transactionHash: string | null;
}

export const BidModel = model<BidDoc>('Bid', bidSchema, 'bids');

/**
 * The one pending sale of a piece: `_id` = the piece's id, so inserting it is the exclusive step that makes a sale
 * pending, and its presence is what blocks bidding. Removed when the sale settles or goes back to open.
 */
const bidSaleSchema = new Schema(
  {
    _id: { type: String, required: true },
    bidId: { type: String, required: true },
    buyerId: { type: String, required: true },
    sellerId: { type: String, required: true },
    buyerAddress: { type: String, required: true },
    sellerAddress: { type: String, required: true },
    priceStroops: { type: Number, required: true },
    asset: { type: String, default: null },
    tokenAmount: { type: Number, default: null },
    /** The transaction (base64 XDR) with the signatures collected so far, its hash (hex) and its upper time bound. */
    transaction: { type: String, required: true },
    transactionHash: { type: String, required: true },
    networkPassphrase: { type: String, required: true },
    memoHash: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    /** Sent to the network (by Knack, or by a wallet that told us its hash): now only a ledger can end it. */
    status: { type: String, enum: ['pending', 'submitted'], required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface BidSaleDoc {
  _id: string;
  bidId: string;
  buyerId: string;
  sellerId: string;
  buyerAddress: string;
  sellerAddress: string;
  priceStroops: number;
  asset: string | null;
  tokenAmount: number | null;
  transaction: string;
  transactionHash: string;
  networkPassphrase: string;
  memoHash: string;
  expiresAt: Date;
  status: 'pending' | 'submitted';
  createdAt: Date;
}

export const BidSaleModel = model<BidSaleDoc>('BidSale', bidSaleSchema, 'bid_sales');
