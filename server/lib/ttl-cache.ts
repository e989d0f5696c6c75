/**
 * A short-lived in-process cache. It only saves work: nothing depends on it, a failed load is not kept, and a
 * writer in this process clears it at once; other instances see a change within the TTL.
 *
 * Read-through (`get` with a loader): callers asking for a key while it loads share that one load (no stampede).
 * With `staleMs`, an entry past its TTL is still answered for that long while one background load refreshes it
 * (stale-while-revalidate), so a slow read never makes a hot key wait.
 *
 * Or kept by hand (`set`, then `peek`): for a value made as a side effect of other work, read back synchronously
 * (a stored HTTP answer, looked up before the app is entered).
 *
 * Past `maxEntries`, the oldest key is forgotten first.
 */
interface Entry<T> {
  value: Promise<T>;
  /** The value once loaded, for `peek`. */
  settled?: { value: T };
  /** Until when the value is fresh; Infinity while the first load runs. */
  freshUntil: number;
  refreshing: boolean;
}

export function createTtlCache<T = unknown>(ttlMs: number, { maxEntries = 1_000, staleMs = 0 } = {}) {
  const entries = new Map<string, Entry<T>>();

  function keep(key: string, entry: Entry<T>): void {
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, entry);
  }

  const loaded = (value: T): Entry<T> => ({ value: Promise.resolve(value), settled: { value }, freshUntil: Date.now() + ttlMs, refreshing: false });

  function load<V extends T>(key: string, loader: () => Promise<V>): Promise<V> {
    const entry: Entry<T> = { value: loader(), freshUntil: Infinity, refreshing: false };
    keep(key, entry);
    entry.value.then(
      (value) => {
        entry.settled = { value };
        entry.freshUntil = Date.now() + ttlMs;
      },
      () => entries.get(key) === entry && entries.delete(key),
    );
    return entry.value as Promise<V>;
  }

  function refresh(key: string, entry: Entry<T>, loader: () => Promise<T>): void {
    entry.refreshing = true;
    loader().then(
      (value) => entries.get(key) === entry && entries.set(key, loaded(value)),
      () => (entry.refreshing = false),
    );
  }

  return {
    get: <V extends T>(key: string, loader: () => Promise<V>): Promise<V> => {
      const entry = entries.get(key);
      const now = Date.now();
      if (!entry || now >= entry.freshUntil + staleMs) return load(key, loader);
      if (now >= entry.freshUntil && !entry.refreshing) refresh(key, entry, loader);
      return entry.value as Promise<V>;
    },
    /** The value kept for `key` if it is loaded and fresh; undefined otherwise (a stale one is forgotten). */
    peek(key: string): T | undefined {
      const entry = entries.get(key);
      if (!entry?.settled) return undefined;
      if (Date.now() < entry.freshUntil) return entry.settled.value;
      entries.delete(key);
      return undefined;
    },
    /** Keeps `value` for `key`, fresh for the TTL from now. */
    set(key: string, value: T): void {
      keep(key, loaded(value));
    },
    clear(): void {
      entries.clear();
    },
  };
}
