import { createTtlCache } from '../../lib/ttl-cache';

/**
 * Public feed pages and suggestions are the same for every visitor: each process keeps them 2 s, and a
 * write to a piece here clears them (lib/ttl-cache.ts).
 */
export const publicPages = createTtlCache(2_000, 2_000);
