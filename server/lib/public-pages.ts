import { clearPublicResponses } from './public-responses';
import { createTtlCache } from './ttl-cache';

const pages = createTtlCache(10_000, { maxEntries: 2_000, staleMs: 30_000 });

/**
 * Public feed pages and suggestions are the same for every visitor: each process keeps them fresh 10 s,
 * then answers them up to 30 s more while one background read refreshes them (ttl-cache.ts), and keeps
 * their answers ready for a second (public-responses.ts). A write to a piece (publishing, editing, listing,
 * featuring, the rankings job) clears both, wherever it is made. Ten
 * seconds, not less: on FerretDB a sorted or regex read scans the collection, and hot pages refreshed more
 * often would keep the database busy for every other call.
 */
export const publicPages = {
  get: pages.get,
  clear(): void {
    pages.clear();
    clearPublicResponses();
  },
};
