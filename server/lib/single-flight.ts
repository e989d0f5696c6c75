/**
 * Work shared by the callers that ask for the same key while it runs: the first caller starts it, the others
 * join it and get its result (or its error). Once it has settled, the next caller starts it anew: nothing is
 * kept (for a result kept a while, see ttl-cache). The result is shared, so no caller may change it.
 */
export interface Flight<T> {
  result: Promise<T>;
  /** True when this caller joined work already running (another caller started it). */
  joined: boolean;
}

export function createSingleFlight<T>() {
  const running = new Map<string, Promise<T>>();
  return {
    run(key: string, work: () => Promise<T>): Flight<T> {
      const already = running.get(key);
      if (already) return { result: already, joined: true };
      const result = work().finally(() => running.delete(key));
      running.set(key, result);
      return { result, joined: false };
    },
  };
}
