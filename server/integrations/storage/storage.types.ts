/**
 * Where media files live. Keys are random, server-made paths such as `images/2026/11/<random>.webp`;
 * a stored object is never rewritten.
 */
import type { Readable } from 'node:stream';

/**
 * How long anyone, a CDN or proxy included, may keep a public file without asking again. Not a year, although
 * a key's bytes never change: whether a file may be seen does. An owner can make a piece private or remove it
 * at any time, and a copy cached as immutable would be served for a year after that, to anyone holding the
 * link; with this, within five minutes every cache must ask us again, and hears 404 (must-revalidate: a cache
 * cut off from us may not serve its stale copy instead). Asking again costs a 304 with no body. New keys for
 * a piece made private would not do it: the copies cached under the old keys would still be served.
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

export interface StoredStat {
  size: number;
  mtime: Date;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores the local file at `key` (the file is left in place; the caller removes its temp files). */
  putFile(key: string, localPath: string, contentType: string): Promise<void>;
  putBuffer(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Removes objects; missing ones are ignored. */
  delete(keys: string[]): Promise<void>;
  stat(key: string): Promise<StoredStat | undefined>;
  /** A stream of the object's bytes, `start` to `end` inclusive when given. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** The URL a browser loads the object from. */
  publicUrl(key: string): string;
}
