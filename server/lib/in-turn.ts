/**
 * Runs the writes of one key one after another within this process. FerretDB's SQLite backend (the embedded
 * database and the tests') applies an update as read, change, write without isolation, so concurrent `$inc`s
 * of one document lose updates (200 concurrent increments of one counter end at about 14). MongoDB applies
 * each update atomically; for it this queue only costs the wait behind the same document's earlier update.
 * The counters of a piece and of its owner go through here.
 */
const tails = new Map<string, Promise<unknown>>();

export function inTurn<T>(key: string, write: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(write, write);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  // The last one out removes the key, so that the map holds only documents being written.
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
