/**
 * Writes to one document only while it still has some field values (a guard): a key still claimed by this caller, an
 * idempotency key still held by this request, an account still awaiting registration.
 *
 * On MongoDB the guard goes into the filter beside the `_id`: the `_id` index finds the document and the write is
 * atomic. On FerretDB a filter with anything besides the `_id` reads the whole collection, and no write there is
 * atomic anyway (a guarded findOneAndUpdate was measured to succeed twice in a third of the rounds): so there the
 * document is read by `_id`, the guard compared here, and the write sent by `_id` alone. The code that relies on a
 * guard is therefore written for a guard that may not hold by the time of the write, as it must be on FerretDB.
 */
import mongoose, { type Collection, type mongo } from 'mongoose';
import { readById } from './query';

type Stored = { collection: Collection };
type Guard = Record<string, unknown>;

let ferretDB: Promise<boolean> | undefined;

/** Whether the connected server is FerretDB (it says so in its build info), asked once per process. */
export function serverIsFerretDB(): Promise<boolean> {
  ferretDB ??= mongoose.connection
    .db!.admin()
    .command({ buildInfo: 1 })
    .then((info) => typeof info.ferretdbVersion === 'string')
    .catch((err: unknown) => {
      ferretDB = undefined;
      throw err;
    });
  return ferretDB;
}

/** Whether a stored value equals a guard's (ids by their text, dates by their time, null and absent alike). */
function same(stored: unknown, wanted: unknown): boolean {
  if ((stored ?? null) === null || (wanted ?? null) === null) return (stored ?? null) === (wanted ?? null);
  if (stored instanceof Date || wanted instanceof Date) return new Date(stored as Date).getTime() === new Date(wanted as Date).getTime();
  if (typeof stored === 'object' || typeof wanted === 'object') return String(stored) === String(wanted);
  return stored === wanted;
}

/** Reads the document by `_id` when the guard must be checked here (FerretDB); true when it holds (or MongoDB will check it). */
async function guardHolds(model: Stored, id: unknown, guard: Guard): Promise<boolean> {
  const projection = Object.fromEntries(Object.keys(guard).map((field) => [field, 1 as const]));
  const doc = await readById<Record<string, unknown>>(model, id, projection);
  return Boolean(doc) && Object.entries(guard).every(([field, value]) => same(doc![field], value));
}

/** Applies `update` to the document with this `_id` if it has the guard's values; answers whether it did. */
export async function updateWhileStill(model: Stored, id: unknown, guard: Guard, update: mongo.UpdateFilter<mongo.Document>): Promise<boolean> {
  if (!(await serverIsFerretDB())) return (await model.collection.updateOne({ _id: id, ...guard } as never, update)).matchedCount > 0;
  if (!(await guardHolds(model, id, guard))) return false;
  return (await model.collection.updateOne({ _id: id } as never, update)).matchedCount > 0;
}

/** Deletes the document with this `_id` if it has the guard's values; answers whether it did. */
export async function deleteWhileStill(model: Stored, id: unknown, guard: Guard): Promise<boolean> {
  if (!(await serverIsFerretDB())) return (await model.collection.deleteOne({ _id: id, ...guard } as never)).deletedCount > 0;
  if (!(await guardHolds(model, id, guard))) return false;
  return (await model.collection.deleteOne({ _id: id } as never)).deletedCount > 0;
}
