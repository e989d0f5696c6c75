/**
 * Moving documents back under their canonical key. A key built from an id as a request spelled it (an id in capitals)
 * is a second key for the same thing; such documents are found by a pattern of their `_id` and each is put under the
 * key it should have had.
 */
import type { Collection } from 'mongoose';
import { isDuplicateKey } from './duplicate-key';

/** A model, as this uses it: its collection. */
type Stored = { collection: Collection };

/**
 * Each document whose `_id` matches `pattern` is inserted again under `canonicalOf(doc)` (where a document is there
 * already, that one is kept: it was written first or by the right code) and then deleted; one for which
 * `canonicalOf` answers null has no right key (a member following themself) and is only deleted. Every step is an
 * insert or a delete by `_id`, so it is safe to repeat, to stop half-way and to run in two processes at once.
 * Answers how many documents it moved or deleted.
 */
export async function rekeyDocuments<Doc extends { _id: string }>(model: Stored, pattern: RegExp, canonicalOf: (doc: Doc) => string | null): Promise<number> {
  const misplaced = (await model.collection.find({ _id: pattern }).toArray()) as unknown as Doc[];
  let changed = 0;
  for (const doc of misplaced) {
    const key = canonicalOf(doc);
    if (key === doc._id) continue;
    if (key !== null) {
      try {
        await model.collection.insertOne({ ...doc, _id: key } as never);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    await model.collection.deleteOne({ _id: doc._id as never });
    changed += 1;
  }
  return changed;
}
