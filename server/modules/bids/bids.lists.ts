/**
 * Each member's bids, as bidder and as seller, listed by id (lib/member-lists.ts) in `bid_lists`, so that their data
 * download and their wallet statement read their bids by `_id`. A bid is noted on its bidder's list before it is
 * inserted, and on its seller's list before the sale marks it sold; the reader keeps a bid only while it still names
 * the member in the role it is read for.
 */
import { memberListModel, memberLists } from '../../lib/member-lists';
import { readEachById } from '../../lib/query';
import { BidModel, type BidDoc } from './bids.model';

const BidListModel = memberListModel('BidList', 'bid_lists');

/** What a bid names instead of a member whose account was deleted. */
export const DELETED_MEMBER = 'deleted';

/** A member's part in a bid: they made it, or sold their piece to it. */
export type BidRole = 'bidder' | 'seller';

/** Every bid, the oldest first, with the members it names. */
async function* everyBid() {
  const bids = BidModel.find({}, { biderId: 1, sellerId: 1 }).sort({ createdAt: 1, _id: 1 }).lean<Pick<BidDoc, '_id' | 'biderId' | 'sellerId'>>();
  for await (const bid of bids.cursor({ batchSize: 1_000 }) as AsyncIterable<Pick<BidDoc, '_id' | 'biderId' | 'sellerId'>>) {
    const members = [bid.biderId, bid.sellerId].filter((id): id is string => Boolean(id) && id !== DELETED_MEMBER);
    yield { id: bid._id, keys: [...new Set(members)] };
  }
}

const lists = memberLists(BidListModel, {
  name: 'bid-lists',
  describe: "Members' bids, as bidder and as seller: a list of ids per member (their download and statement read it), rebuilt from the bids.",
  facts: everyBid,
});

/** Notes a bid on a member's list: call it before the write that makes the bid theirs. */
export const noteBidOf = (memberId: string, bidId: string, at?: Date) => lists.note(memberId, [bidId], at);

/** The member's bids in each role they still have in them, by `_id` through their list. */
export async function bidsOfMember(memberId: string): Promise<{ bid: BidDoc; role: BidRole }[]> {
  const bids = await readEachById<BidDoc>(BidModel, await lists.idsOf(memberId));
  return bids.flatMap((bid) => [
    ...(bid.biderId === memberId ? [{ bid, role: 'bidder' as const }] : []),
    ...(bid.sellerId === memberId ? [{ bid, role: 'seller' as const }] : []),
  ]);
}

/** Removes the member's list, once their bids no longer name them. */
export const removeBidListOf = (memberId: string) => lists.remove(memberId);

export const bidListsState = lists.state;
export const forgetBidLists = lists.forget;
