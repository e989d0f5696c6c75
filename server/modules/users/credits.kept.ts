/**
 * The members' credit movement lists as a kept state (lib/kept-state.ts), checked against and rebuilt from the
 * movements themselves (credits.ts).
 *
 * A list is right when it names each of its member's movements exactly once, names nothing else, numbers its entries
 * 1..n without a gap, and the extension's hint of its end is not past it. The rebuild writes a list in bulk when there
 * is none (a database whose movements were recorded before the lists existed), oldest movement first, and otherwise
 * appends the movements it misses, as a new movement would be; it never renumbers a list, so processes that remember
 * a list's end stay right, and it is safe to repeat. (An entry naming a movement that is not the member's cannot be
 * removed without renumbering: it is reported, and readers skip it.)
 */
import type { AnyBulkWriteOperation } from 'mongoose';
import { comparedState, type KeptStateReport, noteDifference } from '../../lib/kept-state';
import { creditListEntryId, CreditListEntryModel, CreditMovementModel, appendToCreditList, type CreditListEntryDoc, type CreditMovementDoc } from './credits';
import { UserExtModel } from './users.model';

const BATCH = 1_000;

type Fact = Pick<CreditMovementDoc, '_id' | 'userId' | 'at'>;

interface KeptList {
  end: number;
  entries: number;
  /** movement id -> how many entries name it. */
  named: Map<string, number>;
}

/** Each member's movements, oldest first (as recorded: by time, then key). */
async function movementsByMember(): Promise<Map<string, Fact[]>> {
  const members = new Map<string, Fact[]>();
  for await (const raw of CreditMovementModel.collection.find({}, { projection: { userId: 1, at: 1 }, batchSize: BATCH })) {
    const fact = raw as unknown as Fact;
    const userId = String(fact.userId);
    const list = members.get(userId);
    if (list) list.push(fact);
    else members.set(userId, [fact]);
  }
  for (const list of members.values()) list.sort((a, b) => a.at.getTime() - b.at.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  return members;
}

async function keptLists(): Promise<Map<string, KeptList>> {
  const lists = new Map<string, KeptList>();
  for await (const raw of CreditListEntryModel.collection.find({}, { projection: { movementId: 1 }, batchSize: BATCH })) {
    const entry = raw as unknown as CreditListEntryDoc;
    const cut = entry._id.lastIndexOf('#');
    const userId = entry._id.slice(0, cut);
    let list = lists.get(userId);
    if (!list) lists.set(userId, (list = { end: 0, entries: 0, named: new Map() }));
    list.entries += 1;
    list.end = Math.max(list.end, Number(entry._id.slice(cut + 1)));
    list.named.set(entry.movementId, (list.named.get(entry.movementId) ?? 0) + 1);
  }
  return lists;
}

/** Each member's extension: its `_id` and its hint of the list's end. */
async function listHints(): Promise<Map<string, { _id: unknown; creditListEnd: number }>> {
  const hints = new Map<string, { _id: unknown; creditListEnd: number }>();
  for await (const raw of UserExtModel.collection.find({}, { projection: { userId: 1, creditListEnd: 1 }, batchSize: BATCH })) {
    hints.set(String(raw.userId), { _id: raw._id, creditListEnd: Number(raw.creditListEnd ?? 0) });
  }
  return hints;
}

async function compare(write: boolean): Promise<KeptStateReport> {
  const [facts, lists, hints] = await Promise.all([movementsByMember(), keptLists(), listHints()]);
  const differences: string[] = [];
  const inserts: CreditListEntryDoc[] = [];
  const hintSets: AnyBulkWriteOperation[] = [];
  const flushInserts = async (all = false) => {
    if (write && (all || inserts.length >= BATCH) && inserts.length)
      await CreditListEntryModel.collection.insertMany(inserts.splice(0) as never[], { ordered: false });
  };
  const flushHints = async (all = false) => {
    if (write && (all || hintSets.length >= BATCH) && hintSets.length)
      await UserExtModel.collection.bulkWrite(hintSets.splice(0) as never[], { ordered: false });
  };
  let checked = 0;
  for (const userId of new Set([...facts.keys(), ...lists.keys()])) {
    checked += 1;
    const movements = facts.get(userId) ?? [];
    const list = lists.get(userId);
    const mine = new Set(movements.map((movement) => movement._id));
    const missing = movements.filter((movement) => !list?.named.has(movement._id));
    for (const movement of missing) noteDifference(differences, `credits of ${userId}: movement ${movement._id} is not listed`);
    for (const [movementId, count] of list?.named ?? []) {
      if (!mine.has(movementId)) noteDifference(differences, `credits of ${userId}: an entry names ${movementId}, which is not one of theirs`);
      else if (count > 1) noteDifference(differences, `credits of ${userId}: movement ${movementId} is listed ${count} times`);
    }
    if (list && list.entries !== list.end) noteDifference(differences, `credits of ${userId}: ${list.entries} entries numbered up to ${list.end}`);
    let end = list?.end ?? 0;
    if (write && missing.length) {
      if (!list) {
        missing.forEach((movement, i) => inserts.push({ _id: creditListEntryId(userId, i + 1), movementId: movement._id }));
        end = missing.length;
        await flushInserts();
      } else {
        for (const movement of missing) end = await appendToCreditList(userId, movement._id);
      }
    }
    const hint = hints.get(userId);
    if (hint && hint.creditListEnd > (list?.end ?? 0)) {
      noteDifference(differences, `credits of ${userId}: the extension says the list ends at ${hint.creditListEnd}, past its end ${list?.end ?? 0}`);
    }
    if (write && hint && hint.creditListEnd !== end) {
      hintSets.push({ updateOne: { filter: { _id: hint._id }, update: { $set: { creditListEnd: end } } } });
      await flushHints();
    }
  }
  await flushInserts(true);
  await flushHints(true);
  return { checked, differences };
}

export const creditListsState = comparedState(
  'credit-movement-lists',
  "Each member's credit movements listed newest last (credit_movement_lists) with its end on the extension, rebuilt from credit_movements.",
  compare,
);
