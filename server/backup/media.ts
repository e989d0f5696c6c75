/** Media files on local disk: listed, copied into a backup or back, and checked by size and SHA-256. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
// The local driver's own file: the storage index would load the S3 SDK too, a second of every command's start.
import { assertSafeKey } from '../integrations/storage/local.driver';
import type { MediaFile } from './manifest';

/** Which files of a media folder belong in a backup (not the half-written ones a writer renames into place). */
export type MediaFilter = (key: string) => boolean;

/** Files the storage driver placed: only their keys pass its check; `<key>.part-…` files are writes under way. */
export const storedUpload: MediaFilter = (key) => {
  try {
    assertSafeKey(key);
    return true;
  } catch {
    return false;
  }
};

/** The local IPFS folder, but its `tmp/`, where a pin is copied before it is linked into place. */
export const pinnedFile: MediaFilter = (key) => !key.startsWith('tmp/');

/** Every regular file under `root`, as keys with `/` between folders, sorted; none when `root` does not exist. */
export async function listMediaKeys(root: string, accept: MediaFilter): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter(accept)
    .sort();
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Copies `source` to `target` through a temporary name in the target's folder: no one sees half a file there. */
export async function placeFile(source: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.part-${process.pid}-${Date.now()}`;
  try {
    await copyFile(source, temp);
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Copies each file of `keys` from `sourceRoot` to `targetRoot`, and answers what was copied, hashed from the copy. */
export async function copyMedia(sourceRoot: string, targetRoot: string, keys: string[], onFile?: (file: MediaFile) => void): Promise<MediaFile[]> {
  const files: MediaFile[] = [];
  for (const key of keys) {
    const target = path.join(targetRoot, ...key.split('/'));
    await placeFile(path.join(sourceRoot, ...key.split('/')), target);
    const file = { key, bytes: (await stat(target)).size, sha256: await sha256OfFile(target) };
    files.push(file);
    onFile?.(file);
  }
  return files;
}

/** What is wrong with the files of `files` under `root`: missing, or of another size or SHA-256. Empty when all is well. */
export async function mediaProblems(root: string, files: MediaFile[]): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files) {
    const where = path.join(root, ...file.key.split('/'));
    const info = await stat(where).catch(() => undefined);
    if (!info?.isFile()) problems.push(`${file.key}: missing`);
    else if (info.size !== file.bytes) problems.push(`${file.key}: ${info.size} bytes, ${file.bytes} expected`);
    else if ((await sha256OfFile(where)) !== file.sha256) problems.push(`${file.key}: its SHA-256 differs from the manifest's`);
  }
  return problems;
}

export const totalBytes = (files: MediaFile[]) => files.reduce((sum, file) => sum + file.bytes, 0);
