/**
 * Numbered chains: documents whose `_id` is `{chain}{separator}{n}`, numbered 1, 2, 3… without gaps, each inserted
 * once and found by its `_id` alone.
 *
 * The next number is taken by inserting it: an insert on a unique `_id` is the one step that two callers cannot
 * both win, on MongoDB and on FerretDB alike (whose updates are read, change, write without isolation). Of two
 * writers that saw the same end, anywhere, one inserts the next number and the other finds it taken, reads to the
 * new end and tries again. No lock and no shared counter.
 *
 * Each process remembers the last number it saw per chain and that document's fields (a number, once inserted,
 * keeps its place), so a writer usually costs one insert. A process that does not know a chain finds its end by
 * steps that double from the last number known and then halve, in a few reads by `_id`; a known end is confirmed
 * by one read of the number after it. What a process remembers holds as long as no live chain loses documents: a
 * chain is deleted only as a whole, once nothing reads it, and a test that empties the collection calls `forget`.
 */
import type { Collection } from 'mongoose';
import { duplicateKeyPlaces, isDuplicateKey } from './duplicate-key';
import { insertWhole, readById } from './query';

/** The last document of a chain: its number (0 for none yet) and the fields read of it. */
export interface ChainEnd<T> {
  n: number;
  doc: T | null;
}

/** A model, as the chain reads and writes it: its collection, straight through the driver (lib/query.ts). */
type Stored = { collection: Collection };

export interface NumberedChainsOptions<T = object> {
  /** Between the chain's name and the number: a character that no chain name contains. */
  separator: string;
  /** The fields remembered of each chain's last document. */
  projection: Record<string, 1>;
  /** At most this many chains remembered per process (then forgotten all at once, and found again by reads). */
  kept?: number;
  /**
   * Where to start looking for the end of a chain this process does not know: a kept hint (a document written after
   * each append, best-effort) naming a number that exists and that document's fields. A hint behind the true end
   * only costs reads forward; it must never name a number that does not exist.
   */
  hint?: (chain: string) => Promise<ChainEnd<T> | null>;
}

export function numberedChains<T extends object>(model: Stored, { separator, projection, kept = 10_000, hint }: NumberedChainsOptions<T>) {
  const known = new Map<string, ChainEnd<T>>();
  const idOf = (chain: string, n: number) => `${chain}${separator}${n}`;
  const read = (chain: string, n: number) => readById<T>(model, idOf(chain, n), projection);

  function remember(chain: string, end: ChainEnd<T>): void {
    if (known.size >= kept && !known.has(chain)) known.clear();
    if (end.n > (known.get(chain)?.n ?? 0)) known.set(chain, end);
  }

  /**
   * The end of a chain. Without `exact`, what this process knows is trusted without a read, even that a chain has
   * nothing yet (should a later number exist, the next insert finds out); `exact` reads to the true end.
   * `from` is a number known to exist and its fields (a kept snapshot another process wrote): the search starts
   * there when this process knows less, so that a chain this process never saw costs a read or two, not a search
   * from its start.
   */
  async function end(chain: string, exact: boolean, from?: ChainEnd<T>): Promise<ChainEnd<T>> {
    const remembered = known.get(chain);
    let last: ChainEnd<T> = from && from.n > (remembered?.n ?? 0) ? from : (remembered ?? { n: 0, doc: null });
    if (!exact) return last;
    if (hint && !known.has(chain)) {
      const hinted = await hint(chain);
      if (hinted && hinted.n > last.n) last = hinted;
    }
    let step = 1;
    let missing = 0;
    for (;;) {
      const n = last.n + step;
      const found = await read(chain, n);
      if (!found) {
        missing = n;
        break;
      }
      last = { n, doc: found };
      step *= 2;
    }
    while (missing - last.n > 1) {
      const middle = Math.floor((last.n + missing) / 2);
      const found = await read(chain, middle);
      if (found) last = { n: middle, doc: found };
      else missing = middle;
    }
    if (last.n > 0) remember(chain, last);
    return last;
  }

  /** Inserts `doc` as number `n` of the chain; false when that number is taken. */
  async function insertAt<D extends T>(chain: string, n: number, doc: D): Promise<boolean> {
    try {
      await insertWhole(model, { ...doc, _id: idOf(chain, n) });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return false;
    }
    remember(chain, { n, doc });
    return true;
  }

  /**
   * Inserts the document `make` builds for the chain's next number, whatever else is appended at once. `make` gets
   * the end it follows (for a running total: the document before holds the total to add to); it is called again
   * with the new end when another writer took the number.
   */
  async function append<D extends T>(chain: string, make: (n: number, previous: ChainEnd<T>) => D): Promise<{ n: number; id: string; doc: D }> {
    let exact = false;
    for (;;) {
      const previous = await end(chain, exact);
      const n = previous.n + 1;
      const doc = make(n, previous);
      if (await insertAt(chain, n, doc)) return { n, id: idOf(chain, n), doc };
      exact = true;
    }
  }

  /**
   * Appends to each of `chains` the document `make` builds for its next number, all in one insert of them all (one
   * round trip, as against one per chain); the chains whose number was taken meanwhile are read to their end and
   * tried again. Answers the number each got.
   */
  async function appendToEach<D extends T>(chains: readonly string[], make: (chain: string, n: number) => D): Promise<Map<string, number>> {
    const placed = new Map<string, number>();
    let pending = [...new Set(chains)];
    let exact = false;
    while (pending.length) {
      const numbers = await Promise.all(pending.map(async (chain) => (await end(chain, exact)).n + 1));
      const docs = pending.map((chain, i) => make(chain, numbers[i]!));
      const taken = new Set<number>();
      try {
        await model.collection.insertMany(
          docs.map((doc, i) => ({ ...doc, _id: idOf(pending[i]!, numbers[i]!) }) as never),
          { ordered: false },
        );
      } catch (err) {
        const places = duplicateKeyPlaces(err);
        if (!places) throw err;
        for (const place of places) taken.add(place);
      }
      pending.forEach((chain, i) => {
        if (!taken.has(i)) {
          remember(chain, { n: numbers[i]!, doc: docs[i]! });
          placed.set(chain, numbers[i]!);
        }
      });
      pending = pending.filter((_, i) => taken.has(i));
      exact = true;
    }
    return placed;
  }

  return {
    idOf,
    end,
    insertAt,
    append,
    appendToEach,
    /** Forgets every chain this process knows, for tests that empty the collection under a running app. */
    forget: () => known.clear(),
    /** Forgets one chain's end, once the chain is deleted whole: a later append starts again at number 1. */
    forgetChain: (chain: string) => void known.delete(chain),
  };
}
