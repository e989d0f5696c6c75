/**
 * A word-prefix index read by `_id` alone, for search on a database that indexes nothing else (FerretDB: any filter
 * other than `{ _id }`, every regex and every sort reads the whole collection).
 *
 * Every prefix of every indexed term, from 1 to `maxPrefixLength` characters, holds the ids of the items having a
 * term that starts with it: at most `keptPerPrefix` of them, the highest ids (for ObjectIds: the newest), plus a
 * count of the lower ones left out (`dropped`). A search reads, for each word, the document of its longest indexed
 * prefix, intersects, and reads the candidate items by `_id` to check them exactly (the caller's part), so what is
 * held may be stale (an id whose item changed or went) without a search answering anything wrong.
 *
 * Concurrent writers cannot share a document on FerretDB (its updates are read, change, write without isolation, so
 * one of two `$addToSet`s can be lost), so the index is built from facts: each change of an item appends to each
 * touched prefix's numbered chain (lib/numbered-chain.ts) an entry `add` or `remove` of the id, and the prefix's kept
 * snapshot (`{prefix}#kept`) holds the fold of the chain up to a number `n`. The writer folds the snapshot forward
 * after each append, best-effort: a lost or backward write of it only leaves a longer tail, because every reader
 * folds the entries after the snapshot's `n` (read by `_id` until one is missing) into what it read. The chains are
 * never cut: a number, once taken, keeps its place, which is what makes a snapshot's `n` mean the same to everyone.
 *
 * What a search can miss: when more than `keptPerPrefix` items share a prefix (`dropped` > 0), only the newest of
 * them are candidates for a word read through it. A word whose prefix holds every match is enough on its own (the
 * other words are then checked on the candidates), so a query misses only when every one of its words is that common.
 */
import { Schema, type AnyBulkWriteOperation, type Collection } from 'mongoose';
import { duplicateKeyPlaces } from './duplicate-key';
import { type KeptStateReport, noteDifference } from './kept-state';
import { numberedChains } from './numbered-chain';
import { readById } from './query';

/** What is held for one prefix: ids highest first, and how many lower ones were left out. */
export interface PrefixHeld {
  ids: string[];
  dropped: number;
}

/** One fact of a prefix's chain: the item `id` got (`add`) or lost (`!add`) a term starting with the prefix. */
export interface PrefixEntry {
  id: string;
  add: boolean;
}

interface Snapshot extends PrefixHeld {
  _id: string;
  /** The chain number folded in. */
  n: number;
}

/** An item and its terms, as the index's owner recounts them from its own collection. */
export interface IndexedItem {
  id: string;
  terms: string[];
}

export interface PrefixIndexOptions {
  /** The longest prefix indexed; a longer word is looked up by its first this many characters. */
  maxPrefixLength: number;
  /** The most ids held per prefix. */
  keptPerPrefix: number;
}

const SEPARATOR = '#';
const SNAPSHOT = `${SEPARATOR}kept`;
const BATCH = 1_000;

/** Characters as people count them (an emoji is one), so that a prefix never splits one. */
const charactersOf = (term: string) => Array.from(term);

/** The prefix a search word is looked up by: its first `max` characters. */
export const lookupPrefix = (word: string, max: number) => charactersOf(word).slice(0, max).join('');

/** Every prefix, of 1 to `max` characters, of the terms. */
export function prefixesOf(terms: readonly string[], max: number): Set<string> {
  const prefixes = new Set<string>();
  for (const term of terms) {
    const characters = charactersOf(term);
    for (let length = 1; length <= Math.min(max, characters.length); length += 1) prefixes.add(characters.slice(0, length).join(''));
  }
  return prefixes;
}

/**
 * What a prefix holds after `entries`, in chain order, are applied to `held`. Ids are of one length (ObjectId hex),
 * so their text order is their order. An add past the limit leaves out the lowest id; a remove of an id lower than
 * every one held is taken as one of those left out.
 */
export function foldEntries(held: PrefixHeld, entries: readonly PrefixEntry[], kept: number): PrefixHeld {
  const ids = new Set(held.ids);
  let { dropped } = held;
  let lowest = held.ids.length ? held.ids[held.ids.length - 1]! : null;
  for (const { id, add } of entries) {
    if (add) {
      if (ids.has(id)) continue;
      if (ids.size >= kept && lowest !== null && id < lowest) {
        dropped += 1;
        continue;
      }
      ids.add(id);
      if (ids.size > kept) {
        const sorted = [...ids].sort().reverse();
        ids.delete(sorted[sorted.length - 1]!);
        dropped += 1;
      }
    } else if (ids.has(id)) {
      ids.delete(id);
    } else if (dropped > 0 && lowest !== null && id < lowest) {
      dropped -= 1;
    }
    lowest = ids.size ? [...ids].sort()[0]! : lowest;
  }
  return { ids: [...ids].sort().reverse(), dropped };
}

/** What a recount of the facts says a prefix holds: the highest `kept` ids of its items and the count of the rest. */
const heldOf = (ids: string[], kept: number): PrefixHeld => {
  const sorted = [...ids].sort().reverse();
  return { ids: sorted.slice(0, kept), dropped: Math.max(0, sorted.length - kept) };
};

/** The documents of an index's collection: chain entries (`id`, `add`) and snapshots (`n`, `ids`, `dropped`). */
export const prefixIndexSchema = () =>
  new Schema(
    { _id: { type: String, required: true }, id: String, add: Boolean, n: Number, ids: { type: [String], default: undefined }, dropped: Number },
    { versionKey: false },
  );

/** A model, as the index reads and writes it: its collection, straight through the driver (lib/query.ts). */
type Stored = { collection: Collection };

export function prefixIndex(model: Stored, { maxPrefixLength, keptPerPrefix }: PrefixIndexOptions) {
  // Ends of up to 100,000 prefixes remembered per process (an index has tens of thousands): a remembered end makes
  // an append one insert; a forgotten one costs a refused insert and a few reads to find the end again.
  const chains = numberedChains<PrefixEntry>(model, { separator: SEPARATOR, projection: { id: 1, add: 1 }, kept: 100_000 });
  const snapshotId = (prefix: string) => `${prefix}${SNAPSHOT}`;
  const readEntry = (prefix: string, n: number) => readById<PrefixEntry>(model, chains.idOf(prefix, n), { id: 1, add: 1 });

  async function readSnapshot(prefix: string): Promise<Snapshot> {
    return (await readById<Snapshot>(model, snapshotId(prefix))) ?? { _id: snapshotId(prefix), n: 0, ids: [], dropped: 0 };
  }

  /** What a prefix holds now: its snapshot and every entry after it, up to the chain's end. Two reads when up to date. */
  async function held(prefix: string): Promise<PrefixHeld> {
    const snapshot = await readSnapshot(prefix);
    const tail: PrefixEntry[] = [];
    for (let n = snapshot.n + 1; ; n += 1) {
      const entry = await readEntry(prefix, n);
      if (!entry) break;
      tail.push(entry);
    }
    return tail.length ? foldEntries(snapshot, tail, keptPerPrefix) : { ids: snapshot.ids, dropped: snapshot.dropped };
  }

  /**
   * Folds each prefix's snapshot forward to the number its last entry got (`appended`), reading the snapshots and any
   * entries between, and writes them all in one bulk write. A snapshot already past it is left as it is.
   */
  async function foldTo(appended: Map<string, number>, entry: PrefixEntry): Promise<void> {
    const writes = await Promise.all(
      [...appended].map(async ([prefix, n]) => {
        const snapshot = await readSnapshot(prefix);
        if (snapshot.n >= n) return null;
        const between = Array.from({ length: n - 1 - snapshot.n }, (_, i) => snapshot.n + 1 + i);
        const entries = await Promise.all(between.map((number) => readEntry(prefix, number)));
        if (entries.some((one) => !one)) return null; // the collection was emptied meanwhile (a test): nothing to fold
        const folded = foldEntries(snapshot, [...(entries as PrefixEntry[]), entry], keptPerPrefix);
        return { replaceOne: { filter: { _id: snapshotId(prefix) }, replacement: { n, ...folded }, upsert: true } };
      }),
    );
    const chosen = writes.filter((write) => write !== null);
    if (!chosen.length) return;
    try {
      await model.collection.bulkWrite(chosen as never, { ordered: false });
    } catch (err) {
      // Another writer made a snapshot at the same moment: theirs stands, and readers fold the rest from its number.
      if (!duplicateKeyPlaces(err)) throw err;
    }
  }

  /** Appends the entry to every prefix's chain in one insert, then folds their snapshots forward in one write. */
  async function append(prefixes: string[], id: string, add: boolean): Promise<void> {
    if (!prefixes.length) return;
    const entry = { id, add };
    await foldTo(await chains.appendToEach(prefixes, () => entry), entry);
  }

  /** Reads the whole index: each prefix's snapshot and chain entries (for check and rebuild, not for requests). */
  async function readAll(): Promise<Map<string, { snapshot: Snapshot | null; entries: Map<number, PrefixEntry> }>> {
    const prefixes = new Map<string, { snapshot: Snapshot | null; entries: Map<number, PrefixEntry> }>();
    const of = (prefix: string) => prefixes.get(prefix) ?? prefixes.set(prefix, { snapshot: null, entries: new Map() }).get(prefix)!;
    for await (const doc of model.collection.find({})) {
      const id = String(doc._id);
      const at = id.lastIndexOf(SEPARATOR);
      const prefix = id.slice(0, at);
      const suffix = id.slice(at + 1);
      if (`${SEPARATOR}${suffix}` === SNAPSHOT) of(prefix).snapshot = doc as unknown as Snapshot;
      else of(prefix).entries.set(Number(suffix), { id: String(doc.id), add: Boolean(doc.add) });
    }
    return prefixes;
  }

  /** Every prefix's ids, recounted from the items (their owner streams them). */
  async function recount(items: AsyncIterable<IndexedItem>): Promise<Map<string, string[]>> {
    const byPrefix = new Map<string, string[]>();
    for await (const { id, terms } of items) {
      for (const prefix of prefixesOf(terms, maxPrefixLength)) {
        const ids = byPrefix.get(prefix);
        if (ids) ids.push(id);
        else byPrefix.set(prefix, [id]);
      }
    }
    return byPrefix;
  }

  /** The chain's entries after `from`, in order, up to the first missing number. */
  const tailOf = (entries: Map<number, PrefixEntry>, from: number) => {
    const tail: PrefixEntry[] = [];
    for (let n = from + 1; entries.has(n); n += 1) tail.push(entries.get(n)!);
    return tail;
  };
  const endOf = (entries: Map<number, PrefixEntry>) => tailOf(entries, 0).length;

  /**
   * Differences between what each prefix holds and the recount: the ids held must be the highest of the prefix's
   * items, and with those left out they must count them all. (After removals a prefix may hold fewer than it could,
   * which a rebuild refills: that is not a difference, as no search answers anything the facts do not say.)
   */
  function compare(index: Awaited<ReturnType<typeof readAll>>, counted: Map<string, string[]>): KeptStateReport {
    const differences: string[] = [];
    const prefixes = new Set([...index.keys(), ...counted.keys()]);
    for (const prefix of prefixes) {
      const stored = index.get(prefix);
      const snapshot = stored?.snapshot ?? { n: 0, ids: [], dropped: 0 };
      const kept = foldEntries(snapshot, stored ? tailOf(stored.entries, snapshot.n) : [], keptPerPrefix);
      const all = [...(counted.get(prefix) ?? [])].sort().reverse();
      const expected = all.slice(0, kept.ids.length);
      const exact = kept.ids.length + kept.dropped === all.length && kept.ids.every((id, i) => id === expected[i]);
      if (!exact) {
        const missing = all.filter((id) => !kept.ids.includes(id)).slice(0, 3);
        const extra = kept.ids.filter((id) => !all.includes(id)).slice(0, 3);
        noteDifference(
          differences,
          `prefix "${prefix}": holds ${kept.ids.length} (+${kept.dropped} left out), the items say ${all.length}` +
            `${missing.length ? `; missing ${missing.join(', ')}` : ''}${extra.length ? `; not theirs ${extra.join(', ')}` : ''}`,
        );
      }
    }
    return { checked: prefixes.size, differences };
  }

  return {
    maxPrefixLength,
    keptPerPrefix,
    held,

    /**
     * The ids to check for a search of `words` (each a lower-cased word): those held for the word whose prefix
     * holds every match (the fewest, if several do), else those held for every word. `complete` says whether every
     * item matching all the words is among them. Ids highest first.
     */
    async candidates(words: readonly string[]): Promise<{ ids: string[]; complete: boolean }> {
      const prefixes = [...new Set(words.map((word) => lookupPrefix(word, maxPrefixLength)))].filter(Boolean);
      if (!prefixes.length) return { ids: [], complete: true };
      const found = await Promise.all(prefixes.map(held));
      const whole = found.filter((one) => one.dropped === 0).sort((a, b) => a.ids.length - b.ids.length);
      if (whole.length) return { ids: whole[0]!.ids, complete: true };
      const [first, ...rest] = found.sort((a, b) => a.ids.length - b.ids.length);
      const others = rest.map((one) => new Set(one.ids));
      return { ids: first!.ids.filter((id) => others.every((set) => set.has(id))), complete: false };
    },

    /**
     * Records that the item `id` had the terms `before` and now has `after` (none: not indexed), around `write`, the
     * change itself: the prefixes it gains are added before the write and those it loses are removed after, so that
     * a process stopped half-way leaves an id held that the exact check of every search drops, never an item missing.
     * A write that answers null changed nothing (a conditional update that found the item changed): nothing is removed.
     */
    async change<T>(id: string, before: readonly string[], after: readonly string[], write?: () => Promise<T>): Promise<T | undefined> {
      const was = prefixesOf(before, maxPrefixLength);
      const now = prefixesOf(after, maxPrefixLength);
      await append(
        [...now].filter((prefix) => !was.has(prefix)),
        id,
        true,
      );
      const result = write ? await write() : undefined;
      if (result === null) return result;
      await append(
        [...was].filter((prefix) => !now.has(prefix)),
        id,
        false,
      );
      return result;
    },

    /** Compares every prefix with a recount of the items, writing nothing. */
    async check(items: AsyncIterable<IndexedItem>): Promise<KeptStateReport> {
      const index = await readAll();
      return compare(index, await recount(items));
    },

    /**
     * Writes every prefix's snapshot from a recount of the items, as of its chain's end, in batches; only those that
     * differ. The index is read first, so a change made while the items are read is in a chain past the snapshot
     * and still applies. Safe to repeat; meant for a quiet database.
     */
    async rebuild(items: AsyncIterable<IndexedItem>): Promise<KeptStateReport> {
      const index = await readAll();
      const counted = await recount(items);
      const differences = compare(index, counted).differences;
      const writes: AnyBulkWriteOperation[] = [];
      const prefixes = new Set([...index.keys(), ...counted.keys()]);
      for (const prefix of prefixes) {
        const stored = index.get(prefix);
        const n = stored ? endOf(stored.entries) : 0;
        const want = heldOf(counted.get(prefix) ?? [], keptPerPrefix);
        const have = stored?.snapshot;
        if (have && have.n === n && have.dropped === want.dropped && have.ids.join() === want.ids.join()) continue;
        writes.push({ replaceOne: { filter: { _id: snapshotId(prefix) }, replacement: { n, ...want }, upsert: true } });
      }
      for (let i = 0; i < writes.length; i += BATCH) await model.collection.bulkWrite(writes.slice(i, i + BATCH) as never, { ordered: false });
      return { checked: prefixes.size, differences };
    },

    /** Forgets the chain ends this process knows, for tests that empty the collection under a running app. */
    forget: chains.forget,
  };
}

export type PrefixIndex = ReturnType<typeof prefixIndex>;
