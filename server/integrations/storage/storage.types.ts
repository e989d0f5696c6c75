/**
 * Where media files live. Keys are random, server-made paths such as `images/2026/11/<random>.webp`;
 * a stored object is never rewritten, so every URL can be cached as immutable.
 */
import type { Readable } from 'node:stream';

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
