/**
 * A backup's manifest (`manifest.json` in the backup's folder): what the backup holds and how to check it. Written
 * last, so a folder with a manifest is a whole backup; a restore checks everything it lists before and after.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BackupError } from './errors';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'knack-backup/1';
/** How a collection's checksum is computed: the name says which rule, so a later rule can be told apart. */
export const DOCUMENTS_CHECKSUM = 'sha256-sum';

export interface MediaFile {
  /** The path under its folder: the storage key for uploads (`images/2026/11/….webp`), `<xx>/<cid>` for IPFS. */
  key: string;
  bytes: number;
  sha256: string;
}

/** A set of media files: copied into the backup (local disk), or kept elsewhere and only named. */
export type MediaSet =
  { storage: 'local'; copied: true; folder: string; files: MediaFile[] } | { storage: 's3' | 'pinata' | 'kubo'; copied: false; where: string; note: string };

export interface CollectionEntry {
  name: string;
  documents: number;
  /** The documents' BSON bytes, all together. */
  bytes: number;
  /** `sha256-sum:<hex>` of the documents (see `DocumentsChecksum`). */
  checksum: string;
  indexes: number;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  createdAt: string;
  app: { name: string; version: string };
  database: { name: string; server: string; serverVersion: string };
  archive: { file: string; format: string; gzip: boolean; bytes: number; sha256: string };
  collections: CollectionEntry[];
  media: { uploads: MediaSet; ipfs: MediaSet };
}

/**
 * A checksum of a collection's documents that does not depend on the order a database returns them in: the sum,
 * modulo 2^256, of each document's SHA-256 over its BSON bytes. A changed, missing or added document changes it;
 * two databases holding the same documents, byte for byte, give the same sum.
 */
export class DocumentsChecksum {
  private sum = 0n;
  documents = 0;
  bytes = 0;

  add(document: Uint8Array): void {
    this.sum = BigInt.asUintN(256, this.sum + BigInt(`0x${createHash('sha256').update(document).digest('hex')}`));
    this.documents++;
    this.bytes += document.byteLength;
  }

  toString(): string {
    return `${DOCUMENTS_CHECKSUM}:${this.sum.toString(16).padStart(64, '0')}`;
  }
}

export async function writeManifest(folder: string, manifest: Manifest): Promise<void> {
  await writeFile(path.join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The manifest of the backup in `folder`, with a clear error when there is none or it is not one. */
export async function readManifest(folder: string): Promise<Manifest> {
  const file = path.join(folder, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new BackupError(`No backup at ${folder}: ${MANIFEST_FILE} is not there. Name the folder that \`npm run backup\` wrote.`);
    }
    throw err;
  }
  let manifest: Partial<Manifest> | null;
  try {
    manifest = JSON.parse(text) as Partial<Manifest> | null;
  } catch {
    throw new BackupError(`${file} is not JSON: the backup's manifest is damaged.`);
  }
  if (manifest?.format !== MANIFEST_FORMAT) {
    throw new BackupError(`${file} is not a Knack backup manifest of format ${MANIFEST_FORMAT} (its format: ${JSON.stringify(manifest?.format ?? null)}).`);
  }
  if (!manifest.archive?.file || !Array.isArray(manifest.collections) || !manifest.media?.uploads || !manifest.media?.ipfs) {
    throw new BackupError(`${file} lacks the archive, the collections or the media: the backup's manifest is damaged.`);
  }
  if (path.basename(manifest.archive.file) !== manifest.archive.file) throw new BackupError(`${file} names an archive outside the backup's folder.`);
  return manifest as Manifest;
}
