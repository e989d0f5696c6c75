/**
 * A short-lived in-process read-through cache. It only saves reads: nothing depends on it, a failed load
 * is not kept, and a writer in this process clears it at once; other instances see a change within the TTL.
 */
export function createTtlCache(ttlMs: number, maxEntries = 1_000) {
  const entries = new Map<string, { expires: number; value: Promise<unknown> }>();
  return {
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value as Promise<T>;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const value = load();
      entries.set(key, { expires: now + ttlMs, value });
      value.catch(() => entries.delete(key));
      return value;
    },
    clear(): void {
      entries.clear();
    },
  };
}
