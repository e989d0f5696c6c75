/**
 * The comment lists as a kept state (lib/kept-state.ts): each member's `by` list (what they wrote) and `on` list
 * (what was written on their pieces), and their heads, checked against and rebuilt from the comments.
 *
 * A list is right when it names each of its comments exactly once, names no comment that is not there or not its
 * own, numbers its entries 1..n without a gap, and its head is not past its end. The rebuild writes a list in bulk
 * when there is none (the large seed writes only the comments), and otherwise appends the comments it misses, as a
 * new comment would be; it never renumbers a list, so processes that remember a list's end stay right, and it is safe
 * to repeat. (An entry naming a comment of another list cannot be removed without renumbering: it is reported.)
 */
import type { AnyBulkWriteOperation } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { noteDifference, type KeptState, type KeptStateReport } from '../../lib/kept-state';
import {
  CommentListEntryModel,
  CommentListHeadModel,
  CommentModel,
  type CommentDoc,
  type CommentListEntryDoc,
  type CommentListHeadDoc,
} from './comments.model';
import { byList, entryId, listComment, onList } from './comments.lists';

const BATCH = 1_000;

const unlessDuplicate = (err: unknown) => {
  if (!isDuplicateKey(err)) throw err;
};

type Fact = Pick<CommentDoc, '_id' | 'commentorId' | 'ownerId' | 'at'>;

interface KeptList {
  end: number;
  entries: number;
  /** comment id -> how many entries name it. */
  named: Map<string, number>;
}

async function listsFromComments(): Promise<{ facts: Map<string, Fact>; lists: Map<string, string[]> }> {
  const facts = new Map<string, Fact>();
  const lists = new Map<string, string[]>();
  const add = (chain: string, id: string) => {
    const ids = lists.get(chain);
    if (ids) ids.push(id);
    else lists.set(chain, [id]);
  };
  for await (const raw of CommentModel.collection.find({}, { projection: { commentorId: 1, ownerId: 1, at: 1 }, batchSize: BATCH })) {
    const fact = raw as unknown as Fact;
    facts.set(fact._id, fact);
    add(byList(String(fact.commentorId)), fact._id);
    add(onList(String(fact.ownerId)), fact._id);
  }
  return { facts, lists };
}

async function keptLists(): Promise<Map<string, KeptList>> {
  const lists = new Map<string, KeptList>();
  for await (const raw of CommentListEntryModel.collection.find({}, { projection: { commentId: 1 }, batchSize: BATCH })) {
    const entry = raw as unknown as Pick<CommentListEntryDoc, '_id' | 'commentId'>;
    const cut = entry._id.lastIndexOf('#');
    const name = entry._id.slice(0, cut);
    const n = Number(entry._id.slice(cut + 1));
    let list = lists.get(name);
    if (!list) lists.set(name, (list = { end: 0, entries: 0, named: new Map() }));
    list.entries += 1;
    list.end = Math.max(list.end, n);
    list.named.set(entry.commentId, (list.named.get(entry.commentId) ?? 0) + 1);
  }
  return lists;
}

async function keptHeads(): Promise<Map<string, CommentListHeadDoc>> {
  const heads = new Map<string, CommentListHeadDoc>();
  for await (const raw of CommentListHeadModel.collection.find({}, { batchSize: BATCH })) heads.set(String(raw._id), raw as unknown as CommentListHeadDoc);
  return heads;
}

async function compare() {
  const [{ facts, lists }, kept, heads] = await Promise.all([listsFromComments(), keptLists(), keptHeads()]);
  const differences: string[] = [];
  /** List name -> the comments it misses. */
  const missing = new Map<string, string[]>();
  const names = new Set([...lists.keys(), ...kept.keys()]);
  for (const name of names) {
    const ids = lists.get(name) ?? [];
    const list = kept.get(name) ?? { end: 0, entries: 0, named: new Map<string, number>() };
    if (list.entries !== list.end) noteDifference(differences, `${name}: entries numbered up to ${list.end}, but ${list.entries} of them`);
    const mine = new Set(ids);
    const absent = ids.filter((id) => !list.named.has(id));
    for (const id of absent) noteDifference(differences, `${name}: misses comment ${id}`);
    if (absent.length) missing.set(name, absent);
    for (const [id, times] of list.named) {
      if (!mine.has(id)) noteDifference(differences, `${name}: names comment ${id}, which is ${facts.has(id) ? 'in another list' : 'not there'}`);
      else if (times > 1) noteDifference(differences, `${name}: names comment ${id} ${times} times`);
    }
    const head = heads.get(name);
    if (head && head.n > list.end) noteDifference(differences, `${name}: head at ${head.n}, list ends at ${list.end}`);
  }
  return { facts, lists, kept, heads, missing, report: { checked: names.size, differences } satisfies KeptStateReport };
}

async function rebuild(): Promise<KeptStateReport> {
  const { facts, lists, kept, heads, missing, report } = await compare();
  const byAt = (a: string, b: string) => facts.get(a)!.at.getTime() - facts.get(b)!.at.getTime() || (a < b ? -1 : 1);
  // Lists that do not exist yet are written whole, oldest first, in batches.
  let entries: CommentListEntryDoc[] = [];
  const flush = async () => {
    // A rebuild run at once elsewhere (two instances starting on a database of comments alone) writes the same entries.
    if (entries.length) await CommentListEntryModel.collection.insertMany(entries as never[], { ordered: false }).catch(unlessDuplicate);
    entries = [];
  };
  const ends = new Map<string, number>();
  for (const [name, ids] of lists) {
    if (kept.has(name)) continue;
    ids.sort(byAt).forEach((id, i) => entries.push({ _id: entryId(name, i + 1), commentId: id, at: facts.get(id)!.at }));
    ends.set(name, ids.length);
    if (entries.length >= BATCH) await flush();
  }
  await flush();
  // Lists that exist get the comments they miss appended (to both of a comment's lists only where it is missing).
  for (const [name, ids] of missing) {
    if (!kept.has(name)) continue;
    for (const id of ids.sort(byAt)) {
      const fact = facts.get(id)!;
      await listComment(fact, name.startsWith('by:') ? 'by' : 'on');
    }
  }
  const headWrites: AnyBulkWriteOperation<CommentListHeadDoc>[] = [];
  for (const [name, n] of ends) if (heads.get(name)?.n !== n) headWrites.push({ updateOne: { filter: { _id: name }, update: { $set: { n } }, upsert: true } });
  for (let i = 0; i < headWrites.length; i += BATCH) await CommentListHeadModel.bulkWrite(headWrites.slice(i, i + BATCH), { ordered: false });
  return report;
}

export const commentListsKeptState: KeptState = {
  name: 'comment-lists',
  describe:
    "Each member's list of the comments they wrote and of the comments on their pieces (the comment feed's source), and their heads, from the comments.",
  check: async () => (await compare()).report,
  rebuild,
};

/**
 * Builds the comment lists when there are comments but no list entries yet (a database from before the lists were
 * kept, or one the large seed filled with comments alone). Run at start, before requests are served; two reads when
 * there is nothing to do.
 */
export async function buildCommentListsIfNone(): Promise<boolean> {
  const [entry, comment] = await Promise.all([
    CommentListEntryModel.collection.findOne({}, { projection: { _id: 1 } }),
    CommentModel.collection.findOne({}, { projection: { _id: 1 } }),
  ]);
  if (entry || !comment) return false;
  await rebuild();
  return true;
}
