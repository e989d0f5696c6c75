/**
 * Versioned lists: a short list of ids kept per key (a member's projects, a project's pieces), as a numbered chain
 * (lib/numbered-chain.ts) of versions `{key}#{n}`, each holding the whole list after one change. A change reads the
 * last version and inserts the next number; of two changes at once only one gets that number, and the other is made
 * again on the newer list, so every change applies to the list before it, in any number of processes, without an
 * atomic update. A head document `{key}` holds a copy of a recent version (written after each change, best-effort:
 * it may be behind), where a process that does not know the key starts; it then reads the versions after it.
 *
 * Reading a list costs a read or two by `_id` whatever the number of keys. Each version holds the list whole, so
 * this is for lists whose length the writer bounds.
 */
import type { Collection } from 'mongoose';
import { noteDifference, type KeptStateReport } from './kept-state';
import { numberedChains } from './numbered-chain';
import { keepHint, readById } from './query';

export interface ListVersion {
  ids: string[];
}

/** A list as it stands: its version number (0 for none yet) and its ids, in the order the changes left them. */
export interface ListNow {
  n: number;
  ids: string[];
}

const SEPARATOR = '#';

export function versionedLists(model: { collection: Collection }) {
  const chains = numberedChains<ListVersion>(model, {
    separator: SEPARATOR,
    projection: { ids: 1 },
    async hint(key) {
      const head = await readById<{ n: number; ids: string[] }>(model, key);
      return head && head.n > 0 ? { n: head.n, doc: { ids: head.ids } } : null;
    },
  });

  /** The list now: the head's copy, then the versions after it. */
  async function current(key: string): Promise<ListNow> {
    const end = await chains.end(key, true);
    return { n: end.n, ids: end.doc?.ids ?? [] };
  }

  /**
   * Changes the list: `next` gets the ids now and answers the ids after, or null for no change. It is called again
   * with the newer list when another change took the number first; what it reads of other documents to decide must
   * be read inside it, after the list it is given. A list answered unchanged is still written as a version, so that a
   * change decided at once elsewhere on the older list is made again (see the projects' moves). Answers the list after.
   */
  async function change(key: string, next: (ids: string[]) => Promise<string[] | null> | string[] | null): Promise<ListNow> {
    for (;;) {
      const now = await current(key);
      const after = await next(now.ids);
      if (!after) return now;
      const n = now.n + 1;
      if (await chains.insertAt(key, n, { ids: after, at: new Date() } as ListVersion)) {
        await keepHint(model, key, { n, ids: after });
        return { n, ids: after };
      }
    }
  }

  /** Every list there is, as its head says (rebuild and check only: reads the collection whole). */
  async function heads(): Promise<Set<string>> {
    const keys = new Set<string>();
    for await (const doc of model.collection.find({}, { projection: { _id: 1 }, batchSize: 1_000 })) {
      const id = String(doc._id);
      const at = id.indexOf(SEPARATOR);
      keys.add(at < 0 ? id : id.slice(0, at));
    }
    return keys;
  }

  /**
   * Compares every list with what the facts say it holds (`expected`, by key, the oldest first). An id the facts call
   * for that its list lacks is a difference (described by `missingLine`); a listed id the facts no longer call for is
   * not, as readers check each listed id against its document and skip it. With `write`, every list that is not
   * exact (either way) gets a version that is: what it held that still belongs, in its order, then what it lacked.
   */
  async function compare(expected: Map<string, string[]>, write: boolean, missingLine: (key: string, missing: string[]) => string): Promise<KeptStateReport> {
    const keys = new Set([...expected.keys(), ...(write ? await heads() : [])]);
    const differences: string[] = [];
    for (const key of keys) {
      const want = expected.get(key) ?? [];
      const { ids } = await current(key);
      const missing = want.filter((id) => !ids.includes(id));
      if (missing.length) noteDifference(differences, missingLine(key, missing));
      if (write && (missing.length || ids.length !== want.length))
        await change(key, (now) => [...now.filter((id) => want.includes(id)), ...want.filter((id) => !now.includes(id))]);
    }
    return { checked: keys.size, differences };
  }

  return { current, change, compare, forget: () => chains.forget() };
}

export type VersionedLists = ReturnType<typeof versionedLists>;
