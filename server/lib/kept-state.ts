/**
 * What every kept total, ranked list and running balance offers besides its fast path: a way to recompute it from
 * the inserted facts. The fast path (kept documents read by `_id`, updated as things happen, or by a job that reads
 * only what arrived since its checkpoint) is what requests and jobs use; the rebuild reads every fact, so it is a
 * separate command (`npm run rebuild`), run by hand, by the seed of the large data set and by the tests that prove
 * the fast path exact.
 */
import { Schema, model } from 'mongoose';
import { readById } from './query';

export interface KeptStateReport {
  /** How many kept documents (or figures) were compared or written. */
  checked: number;
  /** One line per kept figure that differs from its rebuild (empty when exact); at most a few hundred are listed. */
  differences: string[];
}

export interface KeptState {
  /** A short, stable name (`ledger-balances`, `follow-lists`): what `npm run rebuild -- <name>` takes. */
  name: string;
  /** One sentence: what is kept, and from which facts it is rebuilt. */
  describe: string;
  /** Recomputes from the facts and compares with what is kept, writing nothing. */
  check(): Promise<KeptStateReport>;
  /** Recomputes from the facts and writes what is kept (safe to repeat; meant for a quiet database). */
  rebuild(options?: RebuildOptions): Promise<KeptStateReport>;
}

export interface RebuildOptions {
  /**
   * False to skip comparing what is kept with the rebuild first (its report then lists no differences): for a first
   * build, where nothing is kept yet and the comparison would cost a whole extra read of the facts. Default true.
   */
  compare?: boolean;
}

/**
 * A kept state whose check and rebuild are one comparison of what is kept with the facts, writing what differs or
 * not: the usual shape of one.
 */
export const comparedState = (name: string, describe: string, compare: (write: boolean) => Promise<KeptStateReport>): KeptState => ({
  name,
  describe,
  check: () => compare(false),
  rebuild: () => compare(true),
});

/** At most this many differences are listed in a report (the count of figures checked is always whole). */
export const MAX_LISTED_DIFFERENCES = 200;

/** Adds a difference to a report's list unless the list is full. */
export function noteDifference(differences: string[], line: string): void {
  if (differences.length < MAX_LISTED_DIFFERENCES) differences.push(line);
}

/**
 * Which kept states this database has had built (`_id` = the state's name). A database whose facts were written
 * before a kept state existed (an older release's, or one loaded from a backup of it) has the facts and not the kept
 * documents: the state is built once from them, and marked here. A database that starts empty is marked at once,
 * since its writers keep every state from its first fact.
 */
const keptStateMarkSchema = new Schema({ _id: { type: String, required: true }, builtAt: { type: Date, required: true } }, { versionKey: false });
export const KeptStateMarkModel = model('KeptStateMark', keptStateMarkSchema, 'kept_state_marks');

/** Whether the state named has been built in this database, or kept from its first fact. */
export const isKeptStateMarked = async (name: string) => Boolean(await readById(KeptStateMarkModel, name));

/** Marks the states named as built (or kept from the start). */
export async function markKeptStates(names: string[]): Promise<void> {
  const builtAt = new Date();
  await Promise.all(names.map((name) => KeptStateMarkModel.collection.replaceOne({ _id: name as never }, { builtAt }, { upsert: true })));
}

/** Rebuilds a state from the facts and marks it built. */
export async function rebuildKeptState(state: KeptState, options: RebuildOptions = {}): Promise<KeptStateReport> {
  const report = await state.rebuild(options);
  await markKeptStates([state.name]);
  return report;
}
