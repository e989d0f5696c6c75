/**
 * A member's bids in "Download my data", and when their account is deleted: each bid keeps its place in its piece's
 * chain (the chain's numbers must stay without gaps), withdrawn and no longer naming the member; the pending sales
 * they are the buyer of end. And the sales a member bought or sold, which their wallet statement lists.
 */
import type { Schemas } from '../../lib/openapi-types';
import { stroopsToPrice } from './bids.amounts';
import { BidModel, BidSaleModel, type BidDoc } from './bids.model';

/** The bids the member made, and those they sold a piece to as its owner, oldest first. */
export async function bidsExportOf(userId: string): Promise<Schemas['DataExportBid'][]> {
  const [made, sold] = await Promise.all([BidModel.find({ biderId: userId }).lean<BidDoc[]>(), BidModel.find({ sellerId: userId }).lean<BidDoc[]>()]);
  const rows = [...made.map((bid) => ({ bid, role: 'bidder' as const })), ...sold.map((bid) => ({ bid, role: 'seller' as const }))];
  return rows
    .sort((a, b) => a.bid.createdAt.getTime() - b.bid.createdAt.getTime() || a.bid._id.localeCompare(b.bid._id))
    .map(({ bid, role }) => ({
      id: bid._id,
      role,
      contentId: bid.contentId,
      price: stroopsToPrice(bid.priceStroops),
      unit: bid.unit,
      createdAt: bid.createdAt.toISOString(),
      withdrawn: bid.deleted,
      sold: bid.sold,
      soldAt: bid.soldAt ? bid.soldAt.toISOString() : null,
      transactionHash: bid.transactionHash,
    }));
}

/**
 * The ledger entries of the member's sales in XLM, as buyer or as seller: a sale moves no dollar balance, so it is on
 * none of the member's running chains, and the sold bid names its entry (`xlm:{txHash}:0`, the settling transaction).
 * The member's bids are read by bidder and by seller: indexed on MongoDB; on FerretDB a pass over the bids, which hold
 * offers only, far fewer than the ledger's entries.
 */
export async function saleEntryIdsOf(userId: string): Promise<string[]> {
  const fields = { transactionHash: 1 } as const;
  const [bought, sold] = await Promise.all([
    BidModel.find({ biderId: userId, sold: true }, fields).lean<Pick<BidDoc, 'transactionHash'>[]>(),
    BidModel.find({ sellerId: userId, sold: true }, fields).lean<Pick<BidDoc, 'transactionHash'>[]>(),
  ]);
  return [...bought, ...sold].flatMap((bid) => (bid.transactionHash ? [`xlm:${bid.transactionHash}:0`] : []));
}

/** Withdraws the member's bids and forgets who made them, and who sold to them; safe to repeat. */
export async function removeBidsOf(userId: string): Promise<number> {
  await BidSaleModel.deleteMany({ buyerId: userId });
  const { modifiedCount } = await BidModel.updateMany({ biderId: userId }, { $set: { deleted: true, biderId: 'deleted' } });
  await BidModel.updateMany({ sellerId: userId }, { $set: { sellerId: 'deleted' } });
  return modifiedCount;
}
