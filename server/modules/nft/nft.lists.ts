/**
 * Each member's mints listed by id (lib/member-lists.ts) in `nft_mint_lists`, so that their data download reads their
 * mints by `_id`. A mint is noted on its member's list before it is inserted.
 */
import { memberListModel, memberLists } from '../../lib/member-lists';
import { readEachById } from '../../lib/query';
import { NftMintModel, type NftMintDoc } from './nft.model';

export const NftMintListModel = memberListModel('NftMintList', 'nft_mint_lists');

/** Every mint, the oldest first (ids are made in time order), with its member. */
async function* everyMint() {
  const mints = NftMintModel.find({}, { memberId: 1 }).sort({ _id: 1 }).lean<Pick<NftMintDoc, '_id' | 'memberId'>>();
  for await (const mint of mints.cursor({ batchSize: 1_000 }) as AsyncIterable<Pick<NftMintDoc, '_id' | 'memberId'>>)
    yield { id: mint._id, keys: [mint.memberId] };
}

const lists = memberLists(NftMintListModel, {
  name: 'nft-mint-lists',
  describe: "Members' NFT mints: a list of ids per member (their download reads it), rebuilt from the mints.",
  facts: everyMint,
});

/** Notes a mint on its member's list: call it before inserting the mint. */
export const noteMintOf = (memberId: string, mintId: string, at?: Date) => lists.note(memberId, [mintId], at);

/** The member's mints, by `_id` through their list. */
export async function mintsOfMember(memberId: string): Promise<NftMintDoc[]> {
  return (await readEachById<NftMintDoc>(NftMintModel, await lists.idsOf(memberId))).filter((mint) => mint.memberId === memberId);
}

/** Removes the member's list, once their mints are gone. */
export const removeMintListOf = (memberId: string) => lists.remove(memberId);

export const nftMintListsState = lists.state;
export const forgetNftMintLists = lists.forget;
