/**
 * A member's bids in "Download my data", and when their account is deleted: each bid keeps its place in its piece's
 * chain (the chain's numbers must stay without gaps), withdrawn and no longer naming the member; the pending sales
 * they are the buyer of end. And the sales a member bought or sold, which their wallet statement lists.
 */
import type { Schemas } from '../../lib/openapi-types';
import { stroopsToPrice } from './bids.amounts';
import { bidsOfMember, DELETED_MEMBER, removeBidListOf } from './bids.lists';
import { BidModel, BidSaleModel } from './bids.model';

/** The bids the member made, and those they sold a piece to as its owner, oldest first (read through their list). */
export async function bidsExportOf(userId: string): Promise<Schemas['DataExportBid'][]> {
  return (await bidsOfMember(userId))
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
 * The member's bids are read through their list, by `_id`.
 */
export async function saleEntryIdsOf(userId: string): Promise<string[]> {
  const hashes = (await bidsOfMember(userId)).flatMap(({ bid }) => (bid.sold && bid.transactionHash ? [bid.transactionHash] : []));
  return [...new Set(hashes)].map((hash) => `xlm:${hash}:0`);
}

/**
 * Withdraws the member's bids and forgets who made them, and who sold to them; then removes their list. Safe to
 * repeat. The bids are found by a filter on the member, not through their list: a deletion runs in the background,
 * once, and must reach every bid naming them, even one made before the lists were kept.
 */
export async function removeBidsOf(userId: string): Promise<number> {
  await BidSaleModel.deleteMany({ buyerId: userId });
  const { modifiedCount } = await BidModel.updateMany({ biderId: userId }, { $set: { deleted: true, biderId: DELETED_MEMBER } });
  await BidModel.updateMany({ sellerId: userId }, { $set: { sellerId: DELETED_MEMBER } });
  await removeBidListOf(userId);
  return modifiedCount;
}
