import { createTtlCache } from '../../lib/ttl-cache';

/**
 * Public feed pages and suggestions are the same for every visitor: each process keeps them fresh 2 s,
 * then answers them up to 30 s more while one background read refreshes them; a write to a piece here
 * clears them (lib/ttl-cache.ts).
 */
export const publicPages = createTtlCache(2_000, { maxEntries: 2_000, staleMs: 30_000 });
