/**
 * A member's bids when their account is deleted: each bid keeps its place in its piece's chain (the chain's numbers
 * must stay without gaps), withdrawn and no longer naming the member; the pending sales they are the buyer of end.
 */
import { BidModel, BidSaleModel } from './bids.model';

/** Withdraws the member's bids and forgets who made them; safe to repeat. */
export async function removeBidsOf(userId: string): Promise<number> {
  await BidSaleModel.deleteMany({ buyerId: userId });
  const { modifiedCount } = await BidModel.updateMany({ biderId: userId }, { $set: { deleted: true, biderId: 'deleted' } });
  return modifiedCount;
}
