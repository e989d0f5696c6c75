/**
 * A line per key within this process: whoever joins the line of a key starts once the one before has left it.
 * Other keys never wait. The map holds only keys someone is in line for.
 */
export interface PlaceInLine {
  /** Settles (never rejects) when the one before has left the line. */
  ready: Promise<void>;
  /** Lets the next one go: once done, or when giving up before one's turn (the next still waits for the one before). */
  leave: () => void;
}

export function createPerKeyQueue() {
  const tails = new Map<string, Promise<void>>();

  function join(key: string): PlaceInLine {
    const before = tails.get(key) ?? Promise.resolve();
    let leave!: () => void;
    const gone = new Promise<void>((resolve) => (leave = resolve));
    const end = before.then(() => gone);
    tails.set(key, end);
    // The last one out removes the key.
    void end.then(() => {
      if (tails.get(key) === end) tails.delete(key);
    });
    return { ready: before, leave };
  }

  return {
    join,
    /** Runs `task` when its turn comes; its result or error goes to the caller, and the next task runs either way. */
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const { ready, leave } = join(key);
      return ready.then(task).finally(leave);
    },
  };
}
