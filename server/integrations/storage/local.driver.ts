/** The embedded default: files under DATA_DIR/uploads, served by the app at /files. */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from './storage.types';

const SAFE_KEY = /^[a-z0-9]+(\/[a-z0-9-]+)*\.[a-z0-9]+$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`);
}

export function localStorage(root: string): Storage & { root: string } {
  const file = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  /** Write to a temp name in the same folder, then rename: a reader never sees half a file. */
  async function place(key: string, write: (tmp: string) => Promise<void>) {
    const target = file(key);
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.part-${process.pid}-${Date.now()}`;
    try {
      await write(tmp);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
  return {
    kind: 'local',
    root,
    putFile: (key, localPath) => place(key, (tmp) => copyFile(localPath, tmp)),
    putBuffer: (key, body) => place(key, (tmp) => writeFile(tmp, body)),
    async delete(keys) {
      await Promise.all(keys.map((key) => rm(file(key), { force: true })));
    },
    async stat(key) {
      const target = file(key); // an unsafe key throws, as in the S3 driver
      try {
        const info = await stat(target);
        return info.isFile() ? { size: info.size, mtime: info.mtime } : undefined;
      } catch {
        return undefined;
      }
    },
    async read(key, range) {
      return createReadStream(file(key), range ? { start: range.start, end: range.end } : {});
    },
    publicUrl: (key) => `/files/${key}`,
  };
}
