/**
 * Marks of changes made in several writes, for repairing the ones a process died in the middle of. A change is
 * marked (a document by `_id`) before its first write and the mark is cleared after its last: a mark older than the
 * change could take names a change whose process died between its writes, and exactly which one, so the module's
 * repair job finishes those and reads nothing else. The collection holds only the changes under way (a handful),
 * so that job's read of it whole stays small however much data there is.
 *
 * A mark's `_id` names the change, so trying the change again marks it once. Its `writtenAt` is the writer's real
 * clock; the job compares it with its own.
 */
import type { Collection } from 'mongoose';
import { isDuplicateKey } from './duplicate-key';
import { insertWhole } from './query';

export interface PendingMark {
  _id: string;
  /** When the mark was written: its grace runs from here. */
  writtenAt: Date;
}

/** The marks of one module's changes, in its own collection. */
export function pendingMarks<T extends PendingMark>(model: { collection: Collection }, graceMs: number) {
  return {
    /** Marks a change before its first write (a mark already there is kept); answers its `_id`. */
    async mark(change: Omit<T, 'writtenAt'>): Promise<string> {
      try {
        await insertWhole(model, { ...change, writtenAt: new Date() } as T);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      return change._id;
    },

    /** Clears a change's mark, after its last write (or once it is known not to have happened). */
    async clear(id: string): Promise<void> {
      await model.collection.deleteOne({ _id: id as never });
    },

    /** The marks older than the grace at `now`: changes whose process died between their writes. */
    async due(now = new Date()): Promise<T[]> {
      const marks = (await model.collection.find({}).toArray()) as unknown as T[];
      return marks.filter((mark) => now.getTime() - mark.writtenAt.getTime() >= graceMs);
    },
  };
}
