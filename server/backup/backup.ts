/**
 * `npm run backup`: the database as a mongodump archive (streamed from each collection's cursor, never a whole
 * collection in memory), the media files kept on local disk, and the manifest that says how to check them.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Config } from '../config';
import { PROJECT_ROOT } from '../lib/paths';
import { archiveChunks, ARCHIVE_FORMAT_VERSION, type ArchiveCollection, type CollectionMetadataJson } from './archive';
import { dataCollections, openDatabase, type Db } from './database';
import { BackupError } from './errors';
import { DocumentsChecksum, MANIFEST_FORMAT, writeManifest, type CollectionEntry, type Manifest, type MediaSet } from './manifest';
import { copyMedia, listMediaKeys, pinnedFile, storedUpload, totalBytes, type MediaFilter } from './media';
import { formatBytes, plural } from './words';

export type BackupConfig = Pick<Config, 'mongodbUri' | 'dataDir' | 'dbName' | 'storage' | 'ipfs'>;

export interface BackupOptions {
  config: BackupConfig;
  /** The folder to write; it must not exist yet, or be empty. */
  out: string;
  /** Gzip the archive, as `mongodump --archive --gzip` does. */
  gzip: boolean;
  /** Where the account of what is done goes, a line at a time. */
  print: (line: string) => void;
}

/** Where a backup goes when no folder is named: `DATA_DIR/backups/2026-11-28T02-40-00Z`. */
export function defaultBackupFolder(dataDir: string, now = new Date()): string {
  return path.join(
    dataDir,
    'backups',
    now
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/:/g, '-'),
  );
}

async function appVersion(): Promise<{ name: string; version: string }> {
  const pkg = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

async function prepareFolder(out: string): Promise<boolean> {
  try {
    const entries = await readdir(out);
    if (entries.length > 0) throw new BackupError(`The folder ${out} is not empty: name a new folder for the backup (--out).`);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') throw new BackupError(`${out} is a file: name a folder for the backup (--out).`);
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(out, { recursive: true });
    return true;
  }
}

/** The collection's size as the server reports it (collStats), for the prelude; 0 when it does not say. */
async function reportedSize(db: Db, name: string): Promise<number> {
  try {
    const stats = await db.command({ collStats: name });
    return typeof stats.size === 'number' ? stats.size : 0;
  } catch {
    return 0;
  }
}

/** Writes the archive of every collection to `file`, and answers each collection's count and checksum. */
async function writeArchive(db: Db, file: string, gzip: boolean, serverVersion: string, toolVersion: string) {
  const found = await dataCollections(db);
  const collections: ArchiveCollection[] = [];
  for (const { name, options, uuid } of found) {
    const indexes = (await db.collection(name).listIndexes().toArray()) as CollectionMetadataJson['indexes'];
    const metadata: CollectionMetadataJson = {
      ...(Object.keys(options).length ? { options } : {}),
      indexes,
      ...(uuid ? { uuid } : {}),
      collectionName: name,
      type: 'collection',
    };
    collections.push({ db: db.databaseName, collection: name, metadata, size: await reportedSize(db, name), type: 'collection' });
  }

  const checksums = new Map<string, DocumentsChecksum>();
  async function* documentsOf(collection: ArchiveCollection): AsyncGenerator<Uint8Array> {
    const checksum = new DocumentsChecksum();
    checksums.set(collection.collection, checksum);
    // `raw`: each document as the server sent its bytes, so the archive holds them exactly, types and field order.
    const cursor = db.collection(collection.collection).find({}, { raw: true, batchSize: 500 });
    for await (const document of cursor as unknown as AsyncIterable<Uint8Array>) {
      checksum.add(document);
      yield document;
    }
  }

  const fileHash = createHash('sha256');
  let fileBytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      fileHash.update(chunk);
      fileBytes += chunk.length;
      done(null, chunk);
    },
  });
  const prelude = {
    header: { concurrentCollections: 1, formatVersion: ARCHIVE_FORMAT_VERSION, serverVersion, toolVersion },
    collections,
  };
  const source = Readable.from(archiveChunks(prelude, documentsOf), { objectMode: false });
  if (gzip) await pipeline(source, createGzip(), measure, createWriteStream(file));
  else await pipeline(source, measure, createWriteStream(file));

  const entries: CollectionEntry[] = collections.map((c) => {
    const checksum = checksums.get(c.collection)!;
    return { name: c.collection, documents: checksum.documents, bytes: checksum.bytes, checksum: checksum.toString(), indexes: c.metadata.indexes.length };
  });
  return { entries, bytes: fileBytes, sha256: fileHash.digest('hex') };
}

/** Copies the media files under `source` into `<backup>/<folder>` (`media/uploads`, `media/ipfs`). */
async function backupMedia(source: string, backup: string, folder: string, accept: MediaFilter): Promise<MediaSet> {
  const files = await copyMedia(source, path.join(backup, ...folder.split('/')), await listMediaKeys(source, accept));
  return { storage: 'local', copied: true, folder, files };
}

export async function runBackup({ config, out, gzip, print }: BackupOptions): Promise<{ folder: string; manifest: Manifest }> {
  const folder = path.resolve(out);
  const created = await prepareFolder(folder);
  const archiveFile = gzip ? 'database.archive.gz' : 'database.archive';
  const mediaFolder = path.join(folder, 'media');
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  // The moment the backup began: what it holds was read from then on.
  const startedAt = new Date();
  try {
    database = await openDatabase(config, print);
    print(`Backing up ${database.description} (${database.server}) into ${folder}`);
    const app = await appVersion();
    const archive = await writeArchive(database.db, path.join(folder, archiveFile), gzip, database.serverVersion, `${app.name}-backup ${app.version}`);
    for (const c of archive.entries) print(`  ${c.name}: ${plural(c.documents, 'document')}, ${plural(c.indexes, 'index', 'indexes')}`);
    const documents = archive.entries.reduce((sum, c) => sum + c.documents, 0);
    print(
      `Database: ${plural(archive.entries.length, 'collection')}, ${plural(documents, 'document')}, archive ${archiveFile} (${formatBytes(archive.bytes)})`,
    );

    const uploads: MediaSet = config.storage.s3
      ? {
          storage: 's3',
          copied: false,
          where: `s3://${config.storage.s3.bucket}${config.storage.s3.endpoint ? ` at ${config.storage.s3.endpoint}` : ''}`,
          note: 'Media are in the S3 bucket, which this backup does not copy: keep them with the bucket’s versioning and replication (docs/operations.md).',
        }
      : await backupMedia(path.join(config.dataDir, 'uploads'), folder, 'media/uploads', storedUpload);
    const pinService = config.ipfs.pinata ? 'pinata' : config.ipfs.kubo ? 'kubo' : undefined;
    const ipfs: MediaSet = pinService
      ? {
          storage: pinService,
          copied: false,
          where: pinService === 'pinata' ? config.ipfs.pinata!.apiUrl : config.ipfs.kubo!.url,
          note: `NFT files are pinned on IPFS through ${pinService === 'pinata' ? 'Pinata' : 'the Kubo node'}, which keeps them; this backup does not copy them.`,
        }
      : await backupMedia(path.join(config.dataDir, 'ipfs'), folder, 'media/ipfs', pinnedFile);
    for (const [name, set] of [
      ['Media', uploads],
      ['IPFS files', ipfs],
    ] as const) {
      print(
        set.copied
          ? `${name}: ${plural(set.files.length, 'file')} (${formatBytes(totalBytes(set.files))}) copied into ${set.folder}`
          : `${name}: not copied. ${set.note}`,
      );
    }

    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      createdAt: startedAt.toISOString(),
      app,
      database: { name: database.db.databaseName, server: database.server, serverVersion: database.serverVersion },
      archive: { file: archiveFile, format: `mongodump archive ${ARCHIVE_FORMAT_VERSION}`, gzip, bytes: archive.bytes, sha256: archive.sha256 },
      collections: archive.entries,
      media: { uploads, ipfs },
    };
    await writeManifest(folder, manifest);
    print(`Backup written: ${folder}`);
    return { folder, manifest };
  } catch (err) {
    // What was written is no backup: leave no folder that could be taken for one.
    await rm(path.join(folder, archiveFile), { force: true });
    await rm(mediaFolder, { recursive: true, force: true });
    if (created) await rm(folder, { recursive: true, force: true });
    throw err;
  } finally {
    await database?.close();
  }
}
