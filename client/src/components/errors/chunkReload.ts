/**
 * Stale deploys: after a new release the old chunk files are gone, and a lazy route import fails. A missing
 * chunk forces a page reload, at most once per 60 seconds (the time is kept in sessionStorage); otherwise the
 * error page shows.
 */
export const CHUNK_RELOAD_KEY = 'knack:chunk-reload-at';
export const CHUNK_RELOAD_INTERVAL_MS = 60_000;

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk [\w-]+ failed|ChunkLoadError/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || CHUNK_ERROR.test(error.message);
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function sessionStore(): StorageLike | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage disabled: no reload loop protection, so do not reload
  }
}

/** True (and the time remembered) when a reload is allowed now: none in the last 60 seconds. */
export function claimChunkReload(now: number = Date.now(), storage: StorageLike | undefined = sessionStore()): boolean {
  if (!storage) return false;
  const last = Number(storage.getItem(CHUNK_RELOAD_KEY) ?? 0);
  if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_INTERVAL_MS) return false;
  storage.setItem(CHUNK_RELOAD_KEY, String(now));
  return true;
}

/**
 * Wraps a lazy import: a chunk load failure reloads the page when allowed (the returned promise then never
 * settles, so nothing flashes); otherwise the error goes on to the route error boundary.
 */
export function withChunkReload<T>(load: () => Promise<T>, reload: () => void = () => window.location.reload()): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      if (isChunkLoadError(error) && claimChunkReload()) {
        reload();
        return new Promise<T>(() => {});
      }
      throw error;
    });
}
