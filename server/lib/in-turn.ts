/**
 * Runs the writes of one key one after another within this process. FerretDB's SQLite backend (the embedded
 * database and the tests') applies an update as read, change, write without isolation, so concurrent `$inc`s
 * of one document lose updates (200 concurrent increments of one counter end at about 14). MongoDB applies
 * each update atomically; for it this queue only costs the wait behind the same document's earlier update.
 *
 * Only a speed-up: it orders writes inside one process, never across processes, so no result may depend on
 * it. The totals queued here are recounted from their facts by a job. KNACK_IN_TURN=off turns the queue off
 * (every write runs at once), to show that the tests hold without it.
 */
import { createPerKeyQueue } from './per-key-queue';

// Read here, at the one place the switch matters, rather than threaded through every caller as config.
const enabled = process.env.KNACK_IN_TURN !== 'off';

const writes = createPerKeyQueue();

export function inTurn<T>(key: string, write: () => Promise<T>): Promise<T> {
  return enabled ? writes.run(key, write) : write();
}

/** Increments of one key asked while its write waits in line: summed, they go out as one write. */
const gathering = new Map<string, { inc: Record<string, number>; written: Promise<void> }>();

/**
 * Adds `inc` to a kept total through `write` (given the sum to `$inc`), in turn per key; increments asked
 * while the key's write waits behind another are summed into that one write. Many bumps of a busy document
 * (a popular piece, its owner) then cost a few writes, not one each. Resolves once a write holding `inc` is done.
 */
export function incInTurn(key: string, inc: Record<string, number>, write: (inc: Record<string, number>) => Promise<unknown>): Promise<void> {
  if (!enabled) return write(inc).then(() => undefined);
  const waiting = gathering.get(key);
  if (waiting) {
    for (const [field, n] of Object.entries(inc)) waiting.inc[field] = (waiting.inc[field] ?? 0) + n;
    return waiting.written;
  }
  const batch = { inc: { ...inc }, written: Promise.resolve() };
  gathering.set(key, batch);
  batch.written = inTurn(key, () => {
    // From here on this batch is being written: later increments start the next one.
    gathering.delete(key);
    return write(batch.inc);
  }).then(() => undefined);
  return batch.written;
}
