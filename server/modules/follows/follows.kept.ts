/**
 * The follow lists as a kept state (lib/kept-state.ts): each member's followers and followings chains, their heads,
 * and the members' `followersCount` / `followingsCount`, checked against and rebuilt from the `follows` documents.
 *
 * A chain is right when its count (its last event's) is the number of follows, each follow has exactly one `followed`
 * event naming its instance (so the list shows it), its numbers run 1..n without a gap, and its head is not past its
 * end (nor, at its end, of another count). The rebuild writes a member's chain in bulk when there is none (the large
 * seed writes only the follows), and otherwise appends what a lost event left out: a `followed` event for each follow
 * the list misses, then a `recount` event if the count is still wrong. It never renumbers a chain, so processes that
 * remember a chain's end stay right, and it is safe to repeat.
 */
import { Types, type AnyBulkWriteOperation } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { noteDifference, type KeptState, type KeptStateReport } from '../../lib/kept-state';
import { setFollowTotals, userReads, type UserDoc } from '../users';
import {
  FollowCopyItemModel,
  FollowCopyPointerModel,
  FollowEventModel,
  FollowHeadModel,
  FollowModel,
  type FollowCopyItemDoc,
  type FollowCopyPointerDoc,
  type FollowDoc,
  type FollowEventDoc,
  type FollowHeadDoc,
  type FollowSide,
} from './follows.model';
import { appendListEvent, eventId, listName } from './follows.lists';

const BATCH = 1_000;

const unlessDuplicate = (err: unknown) => {
  if (!isDuplicateKey(err)) throw err;
};

/** A follow as one of its members' lists holds it. */
interface Entry {
  other: string;
  instance: string | null;
  at: Date;
}

/** What a chain holds, folded from its events. */
interface Chain {
  end: number;
  events: number;
  endCount: number;
  /** `{other}|{instance}` of each `followed` event -> their numbers. */
  followed: Map<string, number[]>;
}

const entryKey = (other: string, instance: string | null) => `${other}|${instance ?? ''}`;

/** Every member's lists as the follows say (chain name -> entries). */
async function listsFromFollows(): Promise<Map<string, Entry[]>> {
  const lists = new Map<string, Entry[]>();
  const add = (chain: string, entry: Entry) => {
    const entries = lists.get(chain);
    if (entries) entries.push(entry);
    else lists.set(chain, [entry]);
  };
  const follows = FollowModel.collection.find({}, { projection: { followerId: 1, followedId: 1, instance: 1, at: 1 }, batchSize: BATCH });
  for await (const raw of follows) {
    const follow = raw as unknown as FollowDoc;
    const [follower, followed] = [String(follow.followerId), String(follow.followedId)];
    add(listName('followers', followed), { other: follower, instance: follow.instance ?? null, at: follow.at });
    add(listName('followings', follower), { other: followed, instance: follow.instance ?? null, at: follow.at });
  }
  return lists;
}

/** Every chain as its events hold it. */
async function keptChains(): Promise<Map<string, Chain>> {
  const chains = new Map<string, Chain>();
  const events = FollowEventModel.collection.find({}, { projection: { kind: 1, other: 1, instance: 1, count: 1 }, batchSize: BATCH });
  for await (const raw of events) {
    const event = raw as unknown as FollowEventDoc;
    const cut = event._id.lastIndexOf('#');
    const name = event._id.slice(0, cut);
    const n = Number(event._id.slice(cut + 1));
    let chain = chains.get(name);
    if (!chain) chains.set(name, (chain = { end: 0, events: 0, endCount: 0, followed: new Map() }));
    chain.events += 1;
    if (n > chain.end) [chain.end, chain.endCount] = [n, event.count];
    if (event.kind === 'followed' && event.other) {
      const key = entryKey(String(event.other), event.instance);
      chain.followed.set(key, [...(chain.followed.get(key) ?? []), n]);
    }
  }
  return chains;
}

async function keptHeads(): Promise<Map<string, FollowHeadDoc>> {
  const heads = new Map<string, FollowHeadDoc>();
  for await (const raw of FollowHeadModel.collection.find({}, { batchSize: BATCH })) heads.set(String(raw._id), raw as unknown as FollowHeadDoc);
  return heads;
}

/** Each list's latest copy (follows.lists.ts, compactList): its pointer, and `{other}|{instance}` -> how many of its items. */
async function keptCopies(): Promise<Map<string, { pointer: FollowCopyPointerDoc; items: number; named: Map<string, number> }>> {
  const copies = new Map<string, { pointer: FollowCopyPointerDoc; items: number; named: Map<string, number> }>();
  for await (const raw of FollowCopyPointerModel.collection.find({}, { batchSize: BATCH })) {
    const pointer = raw as unknown as FollowCopyPointerDoc;
    copies.set(pointer._id, { pointer, items: 0, named: new Map() });
  }
  for await (const raw of FollowCopyItemModel.collection.find({}, { batchSize: BATCH })) {
    const item = raw as unknown as FollowCopyItemDoc;
    const name = item._id.slice(0, item._id.lastIndexOf('@'));
    const copy = copies.get(name);
    if (!copy || !item._id.startsWith(`${name}@${copy.pointer.at}#`)) continue; // an earlier copy
    copy.items += 1;
    const key = entryKey(String(item.other), item.instance);
    copy.named.set(key, (copy.named.get(key) ?? 0) + 1);
  }
  return copies;
}

type Totals = Pick<UserDoc, '_id' | 'followersCount' | 'followingsCount'>;

/** The members' kept totals that differ from the follows' counts. */
async function wrongTotals(lists: Map<string, Entry[]>): Promise<{ user: Totals; followersCount: number; followingsCount: number }[]> {
  const wrong: { user: Totals; followersCount: number; followingsCount: number }[] = [];
  // Every member's two totals in one read (a few fields each: 100,000 members are a few megabytes).
  for (const user of await userReads.many<Totals>({}, { projection: { followersCount: 1, followingsCount: 1 } })) {
    const followersCount = lists.get(listName('followers', String(user._id)))?.length ?? 0;
    const followingsCount = lists.get(listName('followings', String(user._id)))?.length ?? 0;
    if ((user.followersCount ?? 0) !== followersCount || (user.followingsCount ?? 0) !== followingsCount) wrong.push({ user, followersCount, followingsCount });
  }
  return wrong;
}

interface Compared {
  lists: Map<string, Entry[]>;
  chains: Map<string, Chain>;
  heads: Map<string, FollowHeadDoc>;
  copies: Awaited<ReturnType<typeof keptCopies>>;
  report: KeptStateReport;
  /** Chains to write or mend: name -> the entries their list misses. */
  missing: Map<string, Entry[]>;
  totals: Awaited<ReturnType<typeof wrongTotals>>;
}

async function compare(): Promise<Compared> {
  const [lists, chains, heads, copies] = await Promise.all([listsFromFollows(), keptChains(), keptHeads(), keptCopies()]);
  const totals = await wrongTotals(lists);
  const differences: string[] = [];
  const missing = new Map<string, Entry[]>();
  for (const name of new Set([...lists.keys(), ...chains.keys()])) {
    const entries = lists.get(name) ?? [];
    const chain = chains.get(name) ?? { end: 0, events: 0, endCount: 0, followed: new Map<string, number[]>() };
    const copy = copies.get(name);
    const floor = copy?.pointer.at ?? 0;
    if (copy && copy.pointer.at > chain.end) noteDifference(differences, `${name}: copy at ${copy.pointer.at}, past the end ${chain.end}`);
    if (copy && copy.items !== copy.pointer.size) noteDifference(differences, `${name}: copy at ${floor} holds ${copy.items} items, not ${copy.pointer.size}`);
    // How often a reader finds a follow: its `followed` events after the copy's event number, and its items in the copy.
    const times = (key: string) => (chain.followed.get(key) ?? []).filter((n) => n > floor).length + (copy?.named.get(key) ?? 0);
    if (chain.events !== chain.end) noteDifference(differences, `${name}: events numbered up to ${chain.end}, but ${chain.events} of them`);
    if (chain.endCount !== entries.length) noteDifference(differences, `${name}: count ${chain.endCount}, follows ${entries.length}`);
    const unlisted = entries.filter((entry) => times(entryKey(entry.other, entry.instance)) !== 1);
    for (const entry of unlisted) {
      noteDifference(differences, `${name}: the follow of ${entry.other} is listed ${times(entryKey(entry.other, entry.instance))} times, not once`);
    }
    if (unlisted.length)
      missing.set(
        name,
        unlisted.filter((entry) => times(entryKey(entry.other, entry.instance)) === 0),
      );
    const head = heads.get(name);
    if (head && (head.n > chain.end || (head.n === chain.end && head.count !== chain.endCount))) {
      noteDifference(differences, `${name}: head at ${head.n} (count ${head.count}), chain ends at ${chain.end} (count ${chain.endCount})`);
    }
  }
  for (const { user, followersCount, followingsCount } of totals) {
    noteDifference(
      differences,
      `user ${String(user._id)}: followersCount ${user.followersCount}, followingsCount ${user.followingsCount}; follows ${followersCount}, ${followingsCount}`,
    );
  }
  const checked = new Set([...lists.keys(), ...chains.keys()]).size + totals.length;
  return { lists, chains, heads, copies, report: { checked, differences }, missing, totals };
}

const sideAndMember = (name: string): [FollowSide, string] => {
  const [side, userId] = name.split(':') as [FollowSide, string];
  return [side, userId];
};

const byAt = (a: Entry, b: Entry) => a.at.getTime() - b.at.getTime() || (a.other < b.other ? -1 : 1);

async function rebuild(): Promise<KeptStateReport> {
  const { lists, chains, heads, copies, report, missing, totals } = await compare();
  // A copy of a list whose events are gone (a rebuild from the follows alone) would be read in place of its new events.
  for (const name of copies.keys()) if (!chains.has(name)) await FollowCopyPointerModel.deleteOne({ _id: name });
  // Chains that do not exist yet are written whole, in batches; their heads with them.
  let events: FollowEventDoc[] = [];
  const flush = async () => {
    // A rebuild run at once elsewhere (two instances starting on a database of follows alone) writes the same events.
    if (events.length) await FollowEventModel.collection.insertMany(events as never[], { ordered: false }).catch(unlessDuplicate);
    events = [];
  };
  const headWrites: AnyBulkWriteOperation<FollowHeadDoc>[] = [];
  const ends = new Map<string, { n: number; count: number }>();
  for (const [name, entries] of lists) {
    if (chains.has(name)) continue;
    const [side, userId] = sideAndMember(name);
    entries.sort(byAt).forEach((entry, i) => {
      events.push({
        _id: eventId(side, userId, i + 1),
        kind: 'followed',
        other: new Types.ObjectId(entry.other),
        instance: entry.instance,
        count: i + 1,
        at: entry.at,
      });
    });
    ends.set(name, { n: entries.length, count: entries.length });
    if (events.length >= BATCH) await flush();
  }
  await flush();
  // Chains that exist get what they miss appended, as a follow through the API would, then a recount if still wrong.
  for (const [name, chain] of chains) {
    const [side, userId] = sideAndMember(name);
    let end = { n: chain.end, count: chain.endCount };
    for (const entry of (missing.get(name) ?? []).sort(byAt)) {
      const appended = await appendListEvent(
        side,
        userId,
        { kind: 'followed', other: new Types.ObjectId(entry.other), instance: entry.instance, at: entry.at },
        1,
      );
      end = { n: appended.n, count: appended.doc!.count };
    }
    const count = lists.get(name)?.length ?? 0;
    if (end.count !== count) {
      end = { n: (await appendListEvent(side, userId, { kind: 'recount', other: null, instance: null, at: new Date() }, 0, count)).n, count };
    }
    ends.set(name, end);
  }
  for (const [name, end] of ends) {
    const head = heads.get(name);
    if (!head || head.n !== end.n || head.count !== end.count) {
      headWrites.push({ updateOne: { filter: { _id: name }, update: { $set: { n: end.n, count: end.count } }, upsert: true } });
    }
  }
  for (let i = 0; i < headWrites.length; i += BATCH) await FollowHeadModel.bulkWrite(headWrites.slice(i, i + BATCH), { ordered: false });
  for (let i = 0; i < totals.length; i += BATCH) {
    await setFollowTotals(
      totals.slice(i, i + BATCH).map(({ user, followersCount, followingsCount }) => ({ userId: user._id, followersCount, followingsCount })),
    );
  }
  return report;
}

export const followListsKeptState: KeptState = {
  name: 'follow-lists',
  describe:
    "Each member's follower and following chains (counts and listed follows), their heads, and the members' followersCount and followingsCount, from the follows.",
  check: async () => (await compare()).report,
  rebuild,
};

/**
 * Builds the follow lists when there are follows but no events yet (a database from before the lists were kept, or
 * one the large seed filled with follows alone), so that no count reads 0 until someone runs the rebuild. Run at
 * start, before requests are served; two reads when there is nothing to do.
 */
export async function buildFollowListsIfNone(): Promise<boolean> {
  const [event, follow] = await Promise.all([
    FollowEventModel.collection.findOne({}, { projection: { _id: 1 } }),
    FollowModel.collection.findOne({}, { projection: { _id: 1 } }),
  ]);
  if (event || !follow) return false;
  await rebuild();
  return true;
}
