/**
 * A short-lived in-process read-through cache. It only saves reads: nothing depends on it, a failed load
 * is not kept, and a writer in this process clears it at once; other instances see a change within the TTL.
 * Callers asking for a key while it loads share that one load (no stampede). With `staleMs`, an entry past
 * its TTL is still answered for that long while one background load refreshes it (stale-while-revalidate),
 * so a slow read never makes a hot key wait.
 */
interface Entry {
  value: Promise<unknown>;
  /** Until when the value is fresh; Infinity while the first load runs. */
  freshUntil: number;
  refreshing: boolean;
}

export function createTtlCache(ttlMs: number, { maxEntries = 1_000, staleMs = 0 } = {}) {
  const entries = new Map<string, Entry>();

  function load<T>(key: string, loader: () => Promise<T>): Promise<T> {
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    const entry: Entry = { value: loader(), freshUntil: Infinity, refreshing: false };
    entries.set(key, entry);
    entry.value.then(
      () => (entry.freshUntil = Date.now() + ttlMs),
      () => entries.get(key) === entry && entries.delete(key),
    );
    return entry.value as Promise<T>;
  }

  function refresh<T>(key: string, entry: Entry, loader: () => Promise<T>): void {
    entry.refreshing = true;
    loader().then(
      (value) => entries.get(key) === entry && entries.set(key, { value: Promise.resolve(value), freshUntil: Date.now() + ttlMs, refreshing: false }),
      () => (entry.refreshing = false),
    );
  }

  return {
    get: <T>(key: string, loader: () => Promise<T>): Promise<T> => {
      const entry = entries.get(key);
      const now = Date.now();
      if (!entry || now >= entry.freshUntil + staleMs) return load(key, loader);
      if (now >= entry.freshUntil && !entry.refreshing) refresh(key, entry, loader);
      return entry.value as Promise<T>;
    },
    clear(): void {
      entries.clear();
    },
  };
}
