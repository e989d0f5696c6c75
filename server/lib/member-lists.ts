/**
 * Member lists: the ids of one member's facts of one kind (the bids they made or sold, the mints they started, the
 * product events they sent), so that their data download and their account's removal read those facts by `_id`. A
 * filter on the member reads the whole collection on FerretDB (the test and dev database), however few facts are
 * theirs; a list costs a read per hundreds of their facts, and nothing for anyone else's.
 *
 * A list is a numbered chain (lib/numbered-chain.ts) of notes `{key}#{n}`, each naming the ids of the facts one
 * write made (a bid, a batch of events). The note is inserted before the facts are written, so a fact is never
 * written without its note and no repair job is needed. A note whose fact was never written (a crash in between, a
 * write refused), or whose fact no longer names the member (a bid withdrawn at their account's removal), is skipped by
 * the reader, who reads each fact by `_id` and keeps only those that still name the member.
 *
 * The kept state checks that every fact naming a member is on that member's list, and its rebuild writes every list
 * again from the facts.
 */
import { Schema, model, type Collection } from 'mongoose';
import { noteDifference, type KeptState, type KeptStateReport } from './kept-state';
import { numberedChains } from './numbered-chain';
import { readEachById } from './query';

export interface MemberListNoteDoc {
  /** `{key}#{n}`. */
  _id: string;
  key: string;
  /** The ids of the facts one write made, in the order written. */
  ids: string[];
  at: Date;
}

/** A fact as the rebuild reads it: its id, and the keys of the lists it belongs on. */
export interface ListedFact {
  id: string;
  keys: string[];
  /** When it was written (a rebuilt note is dated by its latest fact); now when not given. */
  at?: Date;
}

export interface MemberListsOptions {
  /** The kept state's name (`bid-lists`). */
  name: string;
  /** One sentence: what is listed, and from which facts it is rebuilt. */
  describe: string;
  /** Every fact, in the order written, with the keys of the lists it belongs on (none for a fact naming no member). */
  facts: () => AsyncIterable<ListedFact>;
}

/** How many ids a rebuilt note holds, and how many notes are removed at once. */
const REBUILT_NOTE_IDS = 500;
const REMOVE_WINDOW = 100;
/** How many of a list's newest notes are read at a time for the recent ones. */
const RECENT_WINDOW = 10;
const BATCH = 1_000;

/** The model of a module's member lists, in the collection it names (each module owns its own). */
export function memberListModel(modelName: string, collection: string) {
  const schema = new Schema(
    {
      _id: { type: String, required: true },
      key: { type: String, required: true },
      ids: { type: [String], required: true },
      at: { type: Date, required: true },
    },
    { versionKey: false },
  );
  return model<MemberListNoteDoc>(modelName, schema, collection);
}

export function memberLists(stored: { collection: Collection }, { name, describe, facts }: MemberListsOptions) {
  const chains = numberedChains<Pick<MemberListNoteDoc, 'ids'>>(stored, { separator: '#', projection: { ids: 1 } });

  /** Numbers 1..end of a list, read by `_id` a window at a time (those missing are left out). */
  async function notesOf(key: string): Promise<MemberListNoteDoc[]> {
    const { n } = await chains.end(key, true);
    return readEachById<MemberListNoteDoc>(
      stored,
      Array.from({ length: n }, (_, i) => chains.idOf(key, i + 1)),
    );
  }

  /** Notes the ids of facts about to be written (call it before writing them). */
  async function note(key: string, ids: readonly string[], at = new Date()): Promise<void> {
    if (ids.length) await chains.append(key, () => ({ key, ids: [...ids], at }));
  }

  /** Every id the list names, each once, in the order noted (some may name facts that were never written). */
  async function idsOf(key: string): Promise<string[]> {
    return [...new Set((await notesOf(key)).flatMap((listed) => listed.ids))];
  }

  /**
   * The ids noted at or after `since`, the newest notes first: the list is read down from its end and stops at the
   * first window that holds an older note. Notes are appended in about the order of their time (the clocks of two
   * instances may differ a little), so a caller asks with a margin.
   */
  async function idsSince(key: string, since: Date): Promise<string[]> {
    const { n } = await chains.end(key, true);
    const ids: string[] = [];
    for (let to = n; to >= 1; to -= RECENT_WINDOW) {
      const numbers = Array.from({ length: Math.min(RECENT_WINDOW, to) }, (_, i) => chains.idOf(key, to - i));
      const notes = await readEachById<MemberListNoteDoc>(stored, numbers);
      for (const listed of notes) if (new Date(listed.at) >= since) ids.push(...listed.ids);
      if (notes.some((listed) => new Date(listed.at) < since)) break;
    }
    return [...new Set(ids)];
  }

  /**
   * Removes a member's list whole, by `_id`, once nothing adds to it any more (their account is going): a note a
   * process added after it would follow numbers that no longer exist, where a reader that does not know the list
   * never looks. The newest go first, so that a removal cut short leaves the list's start, which readers find.
   */
  async function remove(key: string): Promise<void> {
    const notes = (await notesOf(key)).reverse();
    for (let i = 0; i < notes.length; i += REMOVE_WINDOW)
      await Promise.all(notes.slice(i, i + REMOVE_WINDOW).map((listed) => stored.collection.deleteOne({ _id: listed._id as never })));
    chains.forgetChain(key);
  }

  /** Every list as it is kept: key → the ids it names. */
  async function keptLists(): Promise<Map<string, Set<string>>> {
    const lists = new Map<string, Set<string>>();
    for await (const listed of stored.collection.find({}, { batchSize: BATCH }) as unknown as AsyncIterable<MemberListNoteDoc>) {
      let ids = lists.get(listed.key);
      if (!ids) lists.set(listed.key, (ids = new Set()));
      for (const id of listed.ids) ids.add(id);
    }
    return lists;
  }

  async function check(): Promise<KeptStateReport> {
    const lists = await keptLists();
    const differences: string[] = [];
    let checked = 0;
    for await (const fact of facts()) {
      checked += 1;
      for (const key of fact.keys) if (!lists.get(key)?.has(fact.id)) noteDifference(differences, `${name}: ${fact.id} is not on the list of ${key}`);
    }
    return { checked, differences };
  }

  /** Writes every list again from the facts, in the order written, a few hundred ids to a note. */
  async function rebuild(): Promise<KeptStateReport> {
    const report = await check();
    await stored.collection.deleteMany({});
    chains.forget();
    type End = { n: number; ids: string[]; at: Date };
    const ends = new Map<string, End>();
    let batch: MemberListNoteDoc[] = [];
    const now = new Date();
    const flush = async () => {
      if (batch.length) await stored.collection.insertMany(batch as never[], { ordered: false });
      batch = [];
    };
    const close = async (key: string, end: End) => {
      end.n += 1;
      batch.push({ _id: chains.idOf(key, end.n), key, ids: end.ids, at: end.at });
      end.ids = [];
      if (batch.length >= BATCH) await flush();
    };
    for await (const fact of facts()) {
      const at = fact.at ?? now;
      for (const key of fact.keys) {
        let end = ends.get(key);
        if (!end) ends.set(key, (end = { n: 0, ids: [], at }));
        end.ids.push(fact.id);
        if (end.ids.length === 1 || at > end.at) end.at = at;
        if (end.ids.length === REBUILT_NOTE_IDS) await close(key, end);
      }
    }
    for (const [key, end] of ends) if (end.ids.length) await close(key, end);
    await flush();
    chains.forget();
    return report;
  }

  const state: KeptState = { name, describe, check, rebuild };
  return { note, idsOf, idsSince, remove, state, forget: () => chains.forget() };
}
