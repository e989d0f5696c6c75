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

/** A mark as its writer gives it (each kind of mark of a union keeps its own fields). */
type Unwritten<T> = T extends unknown ? Omit<T, 'writtenAt'> : never;

/** The marks of one module's changes, in its own collection. */
export function pendingMarks<T extends PendingMark>(model: { collection: Collection }, graceMs: number) {
  return {
    /** Marks a change before its first write (a mark already there is kept); answers its `_id`. */
    async mark(change: Unwritten<T>): Promise<string> {
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

    /**
     * The repair job's pass: each mark older than the grace at `now` (a change whose process died between its writes)
     * is finished by `finish`, which answers how much it wrote (0 when nothing was missing), and then cleared. Marks
     * are read whole: they are only the changes under way. Safe to run again at any point, since `finish` writes only
     * what is missing. Answers the marks seen, the changes that needed writes, and the writes.
     */
    async repairDue(finish: (mark: T) => Promise<number>, now = new Date()): Promise<{ marks: number; repaired: number; writes: number }> {
      const marks = (await model.collection.find({}).toArray()) as unknown as T[];
      const due = marks.filter((mark) => now.getTime() - mark.writtenAt.getTime() >= graceMs);
      let repaired = 0;
      let writes = 0;
      for (const mark of due) {
        const written = await finish(mark);
        if (written) repaired += 1;
        writes += written;
        await model.collection.deleteOne({ _id: mark._id as never });
      }
      return { marks: due.length, repaired, writes };
    },
  };
}
