/**
 * The error a write gets when the `_id` (or another unique key) is already taken: the loser of a claim. MongoDB
 * answers code 11000 to inserts and updates alike; FerretDB 1.24 does for inserts, but an update that would repeat
 * a unique key fails there with SQLite's own message (code 1, "UNIQUE constraint failed").
 */
export const isDuplicateKey = (err: unknown) => {
  const { code, message } = (err ?? {}) as { code?: number; message?: string };
  return code === 11000 || (code === 1 && typeof message === 'string' && message.includes('UNIQUE constraint failed'));
};

/**
 * The places in a batch (insertMany, bulkWrite; unordered) of the documents refused for a taken key, when every
 * refusal was that; null when the error is anything else. The driver lists one refusal alone as an object, not a list.
 */
export function duplicateKeyPlaces(err: unknown): number[] | null {
  const listed = (err as { writeErrors?: unknown } | null)?.writeErrors;
  const refused = ([] as { index: number; code?: number; errmsg?: string; message?: string }[]).concat((listed ?? []) as never);
  if (!refused.length) return null;
  const duplicate = (one: (typeof refused)[number]) => isDuplicateKey({ code: one.code, message: one.errmsg ?? one.message });
  return refused.every(duplicate) ? refused.map((one) => one.index) : null;
}

/**
 * Runs an upsert (a write to the document with one `_id`, which makes it when missing) once more if it lost the race
 * to make it. Two first writes at once both find no document and both insert; the later insert meets the key
 * (always on FerretDB; MongoDB retries some of these itself, not all). Tried again, the write finds the document the
 * other made and updates or replaces it, as if the two had come one after the other.
 */
export async function retryLostUpsert<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return upsert();
  }
}
