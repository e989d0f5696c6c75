/**
 * The daily roots as a kept state (lib/kept-state.ts): each root made is compared with the root of its day's entries
 * as stored now, read through the ledger's lists of days up to the journal number the root recorded (the lists are
 * themselves checked against the whole ledger by the `ledger-days` state, which runs before this one).
 *
 * A root is never rewritten, not even by a rebuild: once anchored on the network it is a published fact, and a
 * difference means an entry of its day changed (or was listed late), which is what a member's proof must then show.
 * So `rebuild` writes nothing and reports the same differences as `check`.
 */
import { noteDifference, type KeptState, type KeptStateReport } from '../../lib/kept-state';
import { treeOfDay } from './anchors.days';
import { LedgerRootModel, type LedgerRootDoc } from './anchors.model';

async function checkRoots(): Promise<KeptStateReport> {
  const differences: string[] = [];
  let checked = 0;
  // A scan of ledger_roots: one small document a day.
  const roots = LedgerRootModel.find({}, { _id: 1, root: 1, count: 1, throughSeq: 1 })
    .lean<Pick<LedgerRootDoc, '_id' | 'root' | 'count' | 'throughSeq'>>()
    .cursor();
  for await (const root of roots as AsyncIterable<Pick<LedgerRootDoc, '_id' | 'root' | 'count' | 'throughSeq'>>) {
    checked += 1;
    const tree = await treeOfDay(root._id, root.throughSeq);
    const recounted = tree.root.toString('hex');
    if (recounted !== root.root)
      noteDifference(differences, `${root._id}: root ${root.root} (${root.count} entries), its entries now give ${recounted} (${tree.leaves.length})`);
  }
  return { checked, differences };
}

export const ledgerRootsState: KeptState = {
  name: 'ledger-roots',
  describe: "Each closed day's Merkle root (ledger_roots), checked against its day's entries as stored; never rewritten.",
  check: checkRoots,
  rebuild: checkRoots,
};
