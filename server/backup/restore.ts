/**
 * `npm run restore`: a backup written by `npm run backup` put into an empty database (and the local media folders),
 * then checked against its manifest: every collection's count and checksum read back from the database, every
 * file's size and SHA-256 read back from disk. Everything the backup holds is checked before anything is written.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import mongoose from 'mongoose';
import type { Config } from '../config';
// The local driver's own file: the storage index would load the S3 SDK too, a second of every command's start.
import { assertSafeKey } from '../integrations/storage/local.driver';
import { readArchive, type ArchiveCollection } from './archive';
import { dataCollections, openDatabase, type Db, type OpenDatabase } from './database';
import { BackupError } from './errors';
import { DocumentsChecksum, readManifest, type Manifest, type MediaFile, type MediaSet } from './manifest';
import { listMediaKeys, mediaProblems, placeFile, totalBytes } from './media';
import { formatBytes, listed, plural } from './words';

const { BSON } = mongoose.mongo;

export type RestoreConfig = Pick<Config, 'mongodbUri' | 'dataDir' | 'dbName' | 'storage' | 'ipfs'>;

export interface RestoreOptions {
  config: RestoreConfig;
  /** The backup's folder (the one holding manifest.json). */
  from: string;
  /** Drop every collection of the target database and empty its local media folders first. */
  drop: boolean;
  print: (line: string) => void;
}

export interface RestoreReport {
  collections: number;
  documents: number;
  files: number;
}

/** Documents are inserted in batches of at most this many, or about this many bytes. */
const BATCH_DOCUMENTS = 1000;
const BATCH_BYTES = 4 * 1024 * 1024;

/** A key of the manifest as a path under `root`; a key that would lead out of it (a changed manifest) is refused. */
function mediaPath(root: string, key: string, kind: 'uploads' | 'ipfs'): string {
  if (kind === 'uploads') {
    try {
      assertSafeKey(key);
    } catch {
      throw new BackupError(`The manifest names a media file that is no storage key: ${key}`);
    }
  }
  const target = path.resolve(root, ...key.split('/'));
  if (!target.startsWith(`${path.resolve(root)}${path.sep}`)) throw new BackupError(`The manifest names a file outside its folder: ${key}`);
  return target;
}

async function checkArchive(folder: string, manifest: Manifest): Promise<string> {
  const file = path.join(folder, manifest.archive.file);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new BackupError(`The backup's archive ${file} is missing.`);
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  if (info.size !== manifest.archive.bytes || hash.digest('hex') !== manifest.archive.sha256) {
    throw new BackupError(`The archive ${file} does not match the manifest (its size or SHA-256 differs): the backup is damaged or was changed.`);
  }
  return file;
}

async function checkMedia(folder: string, name: string, set: MediaSet): Promise<void> {
  if (!set.copied) return;
  const problems = await mediaProblems(path.join(folder, ...set.folder.split('/')), set.files);
  if (problems.length) throw new BackupError(`The backup's ${name} do not match the manifest: ${listed(problems)}.`);
}

/** What the target already holds: collections with documents, and files in the local media folders. */
async function whatIsThere(db: Db, roots: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const { name } of await dataCollections(db)) {
    if (await db.collection(name).findOne({}, { projection: { _id: 1 } })) {
      found.push(`${name}: ${plural(await db.collection(name).estimatedDocumentCount(), 'document')}`);
    }
  }
  for (const root of roots) {
    const keys = await listMediaKeys(root, () => true);
    if (keys.length) found.push(`${root}: ${plural(keys.length, 'file')}`);
  }
  return found;
}

/** Makes each collection of the archive with its options and indexes (on FerretDB the unique ones only: see connection.ts). */
async function createCollections(target: OpenDatabase, collections: ArchiveCollection[], print: (line: string) => void): Promise<void> {
  const existing = new Set((await dataCollections(target.db)).map((c) => c.name));
  let skipped = 0;
  for (const { collection, metadata } of collections) {
    if (!existing.has(collection)) await target.db.createCollection(collection, metadata.options ?? {});
    const indexes = metadata.indexes
      .filter((index) => index.name !== '_id_')
      .filter((index) => {
        // FerretDB answers every query but one by `_id` by reading the whole collection: a secondary index is only a
        // cost there, and the app drops the ones it finds (ensureIndexes). It keeps those that enforce uniqueness.
        const kept = !target.ferretdb || index.unique === true;
        if (!kept) skipped++;
        return kept;
      })
      .map(({ v: _v, ns: _ns, ...index }) => index as mongoose.mongo.IndexDescription);
    if (indexes.length) await target.db.collection(collection).createIndexes(indexes);
  }
  if (skipped) print(`  Left out ${plural(skipped, 'index', 'indexes')} that enforce no uniqueness: on FerretDB they only slow writes, and the app drops them`);
}

/** Streams the archive into the database, a batch at a time; answers the documents inserted per collection. */
async function restoreArchive(file: string, gzip: boolean, manifest: Manifest, target: OpenDatabase, print: (line: string) => void) {
  const fileStream = createReadStream(file);
  let source: NodeJS.ReadableStream = fileStream;
  if (gzip) {
    const gunzip = createGunzip();
    // pipe() does not pass a read error on: the gunzip stream ends with it, so the restore stops with it.
    fileStream.once('error', (err) => gunzip.destroy(err));
    source = fileStream.pipe(gunzip);
  }
  const pending = new Map<string, { documents: mongoose.mongo.Document[]; bytes: number }>();
  const inserted = new Map<string, number>();
  const flush = async (collection: string) => {
    const batch = pending.get(collection);
    if (!batch?.documents.length) return;
    pending.set(collection, { documents: [], bytes: 0 });
    await target.db.collection(collection).insertMany(batch.documents, { ordered: true });
    inserted.set(collection, (inserted.get(collection) ?? 0) + batch.documents.length);
  };
  for await (const event of readArchive(source as AsyncIterable<Buffer>)) {
    if (event.kind === 'prelude') {
      const inArchive = event.prelude.collections.map((c) => c.collection).sort();
      const inManifest = manifest.collections.map((c) => c.name).sort();
      if (inArchive.join('\n') !== inManifest.join('\n')) {
        throw new BackupError('The archive and the manifest do not list the same collections: the backup is damaged.');
      }
      await createCollections(target, event.prelude.collections, print);
    } else if (event.kind === 'document') {
      // Every value as the archive holds it (an int32 stays one, a double stays one), so the bytes come back the same.
      const document = BSON.deserialize(event.bytes, { promoteValues: false, bsonRegExp: true });
      const batch = pending.get(event.collection) ?? { documents: [], bytes: 0 };
      batch.documents.push(document);
      batch.bytes += event.bytes.length;
      pending.set(event.collection, batch);
      if (batch.documents.length >= BATCH_DOCUMENTS || batch.bytes >= BATCH_BYTES) await flush(event.collection);
    } else {
      await flush(event.collection);
      print(`  ${event.collection}: ${plural(inserted.get(event.collection) ?? 0, 'document')}`);
    }
  }
  return inserted;
}

/** Reads every restored collection back and compares its count and checksum with the manifest's. */
async function databaseProblems(db: Db, manifest: Manifest): Promise<string[]> {
  const problems: string[] = [];
  for (const entry of manifest.collections) {
    const checksum = new DocumentsChecksum();
    for await (const document of db.collection(entry.name).find({}, { raw: true, batchSize: 500 }) as unknown as AsyncIterable<Uint8Array>) {
      checksum.add(document);
    }
    if (checksum.documents !== entry.documents) problems.push(`${entry.name}: ${checksum.documents} documents, ${entry.documents} in the backup`);
    else if (checksum.toString() !== entry.checksum) problems.push(`${entry.name}: its documents' checksum differs from the backup's`);
  }
  return problems;
}

async function restoreMedia(folder: string, set: MediaSet, root: string, kind: 'uploads' | 'ipfs'): Promise<MediaFile[]> {
  if (!set.copied) return [];
  const from = path.join(folder, ...set.folder.split('/'));
  for (const file of set.files) await placeFile(path.join(from, ...file.key.split('/')), mediaPath(root, file.key, kind));
  return set.files;
}

export async function runRestore({ config, from, drop, print }: RestoreOptions): Promise<RestoreReport> {
  const folder = path.resolve(from);
  const manifest = await readManifest(folder);
  const { uploads, ipfs } = manifest.media;
  for (const set of [uploads, ipfs]) {
    if (set.copied) for (const file of set.files) mediaPath(folder, file.key, set === uploads ? 'uploads' : 'ipfs');
  }

  // The backup is checked whole before the database is touched.
  const archiveFile = await checkArchive(folder, manifest);
  await checkMedia(folder, 'media files', uploads);
  await checkMedia(folder, 'IPFS files', ipfs);
  print(
    `Backup of ${manifest.createdAt} (${manifest.app.name} ${manifest.app.version}, database "${manifest.database.name}" on ${manifest.database.server}) checked: archive and files match the manifest`,
  );

  if (uploads.copied && config.storage.s3) {
    throw new BackupError(
      `This backup holds media files from local disk, and S3_BUCKET is set: copy ${path.join(folder, uploads.folder)} into the bucket (for example with \`aws s3 sync\`) and restore with S3_BUCKET unset, or restore onto a machine that keeps media on local disk.`,
    );
  }
  const pinService = config.ipfs.pinata ? 'PINATA_JWT' : config.ipfs.kubo ? 'IPFS_KUBO_URL' : undefined;
  if (ipfs.copied && ipfs.files.length && pinService) {
    throw new BackupError(
      `This backup holds IPFS files kept by the app, and ${pinService} is set: restore with it unset, so that the app serves them from DATA_DIR/ipfs.`,
    );
  }
  const uploadsRoot = path.join(config.dataDir, 'uploads');
  const ipfsRoot = path.join(config.dataDir, 'ipfs');
  const localRoots = [...(config.storage.s3 ? [] : [uploadsRoot]), ...(pinService ? [] : [ipfsRoot])];

  const target = await openDatabase(config, print);
  try {
    const there = await whatIsThere(target.db, localRoots);
    if (there.length && !drop) {
      throw new BackupError(
        `The target is not empty (${listed(there)}). A restore goes into an empty ${target.description}: point MONGODB_URI or DB_NAME (and DATA_DIR) at new ones, or pass --drop to replace what is there with the backup.`,
      );
    }
    if (drop) {
      for (const { name } of await dataCollections(target.db)) await target.db.dropCollection(name);
      for (const root of localRoots) await rm(root, { recursive: true, force: true });
      if (there.length) print(`Dropped what was there (--drop): ${listed(there)}`);
    }

    print(`Restoring into ${target.description} (${target.server})`);
    const inserted = await restoreArchive(archiveFile, manifest.archive.gzip, manifest, target, print);
    const documents = [...inserted.values()].reduce((sum, n) => sum + n, 0);

    const files = [...(await restoreMedia(folder, uploads, uploadsRoot, 'uploads')), ...(await restoreMedia(folder, ipfs, ipfsRoot, 'ipfs'))];
    for (const [name, set] of [
      ['Media', uploads],
      ['IPFS files', ipfs],
    ] as const) {
      print(
        set.copied
          ? `${name}: ${plural(set.files.length, 'file')} (${formatBytes(totalBytes(set.files))}) restored`
          : `${name}: not in this backup. ${set.note} (${set.where})`,
      );
    }

    const problems = [
      ...(await databaseProblems(target.db, manifest)),
      ...(uploads.copied ? await mediaProblems(uploadsRoot, uploads.files) : []),
      ...(ipfs.copied ? await mediaProblems(ipfsRoot, ipfs.files) : []),
    ];
    if (problems.length) throw new BackupError(`The restored data do not match the backup's manifest: ${listed(problems)}.`);
    print(
      `Restored and verified: ${plural(manifest.collections.length, 'collection')} and ${plural(documents, 'document')} (counts and checksums read back), ${plural(files.length, 'file')} (sizes and SHA-256 read back)`,
    );
    return { collections: manifest.collections.length, documents, files: files.length };
  } finally {
    await target.close();
  }
}
