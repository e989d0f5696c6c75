/**
 * Key documents: a document whose `_id` is a value that names one document of another collection (an email names
 * an account, `{ownerId}/{slug}` names a piece), holding that document's id. On the embedded database only a read by
 * exact `_id` is indexed, so a look-up by such a value costs two reads by `_id` (the key, then the document) however
 * large the collection, where a filter on the field would read all of it.
 *
 * A key is claimed by inserting it before the document takes the value, and marked held once it has it; the value
 * given up loses its key after. The insert is the exclusive step: of two writers taking one value, in any
 * processes, one inserts the key and the other is told it is taken.
 *
 * A key is only a pointer: every read checks that the document it names still has the value, so a key left behind
 * (a process that stopped between the key and its document) answers nothing, and a claim takes it over once it is
 * clearly abandoned: held (its change is over) or claimed longer ago than the grace. The owner's kept state compares
 * the keys with the documents and rebuilds them in bulk (`compare`). A database written before the keys existed has
 * none: the rebuild marks the collection complete, and until then a read that finds no key may fall back to the
 * documents' field (the caller's choice) and keep the key it finds (`keep`).
 */
import { Types, type Collection } from 'mongoose';
import { isDuplicateKey, retryLostUpsert } from './duplicate-key';
import { deleteWhileStill, updateWhileStill } from './guarded-write';
import { noteDifference, type KeptStateReport } from './kept-state';
import { readById } from './query';

/** A key as stored: the id of the document that has the value, 'claimed' until it has it, then 'held'. */
export interface KeyDoc {
  _id: string;
  ref: Types.ObjectId;
  state: 'claimed' | 'held';
  /** When it was claimed. */
  at: Date;
}

/**
 * How long a claim whose document does not (yet) have the value is taken as a change in progress: far longer than
 * a sign-up, a rename or a publish takes between its claim and its write, short enough that a process that stopped
 * between them keeps a value from others only briefly.
 */
export const CLAIM_GRACE_MS = 60_000;

/**
 * The document the rebuild writes last: every document has its keys, so a read that finds no key may answer "none"
 * without a scan. Its id is no key's, as every key id has a `:` or a `/`.
 */
const COMPLETE_MARK = 'complete';

/** Documents read or written in one batch by the comparison. */
const BATCH = 1_000;

export interface KeyDocumentsOptions {
  /** The keys' collection, straight through the driver. */
  model: { collection: Collection };
  /** Whether the document `ref` has the value of key `id` now (reads it by `_id`). */
  holds: (id: string, ref: Types.ObjectId) => Promise<boolean>;
}

export function keyDocuments({ model, holds }: KeyDocumentsOptions) {
  const keys = () => model.collection;

  /**
   * The document a key names, read by `_id`, if it still has the value (`has` checks it on the document read);
   * else null. On a database whose keys are not complete, a miss calls `scan` (a read by the field, the way
   * before keys) and keeps the key of what it finds.
   */
  async function lookUp<T extends { _id: Types.ObjectId }>(
    id: string,
    read: (ref: Types.ObjectId) => Promise<T | null>,
    has: (doc: T) => boolean,
    scan: () => Promise<T | null>,
  ): Promise<T | null> {
    const key = await readById<KeyDoc>(model, id, { ref: 1 });
    if (key) {
      const doc = await read(key.ref);
      if (doc && has(doc)) return doc;
    }
    if (await complete()) return null;
    const found = await scan();
    if (found) await keep(id, found._id);
    return found;
  }

  /** Whether every document has its keys (the rebuild has run once on this database). */
  async function complete(): Promise<boolean> {
    return Boolean(await readById(model, COMPLETE_MARK, { _id: 1 }));
  }

  /** Writes the held key of a value a document has (a fallback read's find); two keeps at once leave one key. */
  async function keep(id: string, ref: Types.ObjectId): Promise<void> {
    await retryLostUpsert(() => keys().replaceOne({ _id: id as never }, { ref, state: 'held', at: new Date() }, { upsert: true }));
  }

  /**
   * Claims the key `id` for the document `ref`; false when another document has the value or is taking it now. A
   * key of `ref` already is claimed. A left-over key is removed, naming its document, and the insert tried again,
   * so of two takers of a left-over key one wins.
   */
  async function claim(id: string, ref: Types.ObjectId): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await keys().insertOne({ _id: id as never, ref, state: 'claimed', at: new Date() });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const key = await readById<KeyDoc>(model, id);
      if (!key) continue;
      if (key.ref.equals(ref)) return true;
      if (await holds(id, key.ref)) return false;
      const inProgress = key.state === 'claimed' && Date.now() - new Date(key.at).getTime() < CLAIM_GRACE_MS;
      if (inProgress) return false;
      await deleteWhileStill(model, id, { ref: key.ref });
    }
    return false;
  }

  /** Marks the claimed key held: the document has the value now. */
  async function confirm(id: string, ref: Types.ObjectId): Promise<void> {
    await updateWhileStill(model, id, { ref }, { $set: { state: 'held' } });
  }

  /** Removes the key if it is `ref`'s (a value given up, or a claim whose write failed); another's stays. */
  async function release(id: string, ref: Types.ObjectId): Promise<void> {
    await deleteWhileStill(model, id, { ref });
  }

  /**
   * Compares the keys with `expected` (every key the documents call for, by id, with its document's id); with
   * `write`, puts them right in bulk (missing keys inserted, wrong ones replaced, left-over ones removed, then the
   * collection marked complete). Safe to repeat.
   */
  async function compare(expected: Map<string, string>, write: boolean): Promise<KeptStateReport> {
    const differences: string[] = [];
    const wrong: { _id: string; ref: string }[] = [];
    const extra: string[] = [];
    const now = new Date();
    const flushWrong = async () => {
      if (!write || !wrong.length) return;
      await keys().bulkWrite(
        wrong.splice(0).map(({ _id, ref }) => ({
          replaceOne: { filter: { _id: _id as never }, replacement: { ref: new Types.ObjectId(ref), state: 'held', at: now }, upsert: true },
        })),
        { ordered: false },
      );
    };
    const flushExtra = async () => {
      if (write && extra.length)
        await keys().bulkWrite(
          extra.splice(0).map((_id) => ({ deleteOne: { filter: { _id: _id as never } } })),
          { ordered: false },
        );
    };
    let checked = 0;
    const seen = new Set<string>();
    for await (const raw of keys().find({}, { batchSize: BATCH })) {
      const key = raw as unknown as KeyDoc;
      if (key._id === COMPLETE_MARK) continue;
      checked++;
      seen.add(key._id);
      const ref = expected.get(key._id);
      if (ref === undefined) {
        noteDifference(differences, `${key._id}: kept for ${String(key.ref)}, which does not have it`);
        extra.push(key._id);
      } else if (ref !== String(key.ref) || key.state !== 'held') {
        noteDifference(differences, `${key._id}: kept for ${String(key.ref)} (${key.state}), held by ${ref}`);
        wrong.push({ _id: key._id, ref });
      }
      if (wrong.length >= BATCH) await flushWrong();
      if (extra.length >= BATCH) await flushExtra();
    }
    await flushWrong();
    await flushExtra();
    const missing: KeyDoc[] = [];
    const flushMissing = async () => {
      if (write && missing.length) await keys().insertMany(missing.splice(0) as never[], { ordered: false });
      missing.length = 0;
    };
    for (const [_id, ref] of expected) {
      if (seen.has(_id)) continue;
      checked++;
      noteDifference(differences, `${_id}: no key, held by ${ref}`);
      missing.push({ _id, ref: new Types.ObjectId(ref), state: 'held', at: now });
      if (missing.length >= BATCH) await flushMissing();
    }
    await flushMissing();
    if (write) await keys().replaceOne({ _id: COMPLETE_MARK as never }, { at: now }, { upsert: true });
    else if (!(await complete())) noteDifference(differences, 'the keys are not marked complete: the rebuild has not run on this database');
    return { checked, differences };
  }

  return { lookUp, complete, keep, claim, confirm, release, compare };
}
