/**
 * The archive format of `mongodump --archive` (read by `mongorestore --archive`), written and read a document at a
 * time so that a collection is never held whole in memory. The layout, as mongo-tools' archive package defines it:
 *
 *   magic number        4 bytes, 0x8199e26d little-endian (6d e2 99 81)
 *   header              BSON { concurrent_collections: int32, version: "0.1", server_version, tool_version }
 *   collection metadata BSON { db, collection, metadata: canonical Extended JSON, size: int32, type } per collection
 *   terminator          ff ff ff ff
 *   then for each collection, a namespace block and an EOF block:
 *     namespace header  BSON { db, collection, EOF: false, CRC: int64 0 }, its documents as BSON, terminator
 *     EOF header        BSON { db, collection, EOF: true, CRC: int64 }, terminator
 *
 * The CRC of the EOF header is CRC-64 (ECMA-182 polynomial, reflected, as Go's hash/crc64 computes it with its ECMA
 * table) of all the collection's document bytes in the order written; mongorestore refuses a collection whose bytes
 * do not give it. mongodump may interleave the blocks of several collections; this writer writes one collection after
 * the other (concurrent_collections 1), and the reader accepts interleaved blocks as mongorestore does.
 */
import mongoose from 'mongoose';

const { BSON } = mongoose.mongo;

export const ARCHIVE_MAGIC = Buffer.from([0x6d, 0xe2, 0x99, 0x81]);
export const ARCHIVE_FORMAT_VERSION = '0.1';
const TERMINATOR = Buffer.from([0xff, 0xff, 0xff, 0xff]);
/** The largest BSON document MongoDB stores (16 MiB), the parser's bound on a length it reads. */
const MAX_BSON_SIZE = 16 * 1024 * 1024;
/** Documents are written out in chunks of about this size rather than one write each. */
const CHUNK_BYTES = 1024 * 1024;

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

// CRC-64 with the ECMA-182 polynomial, reflected (0xC96C5795D7870F42), all ones in and out: Go's crc64.ECMA. The
// 64-bit remainder is kept as two 32-bit halves so each byte costs a few number operations, not BigInt ones.
const CRC_TABLE_HI = new Uint32Array(256);
const CRC_TABLE_LO = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let hi = 0;
  let lo = n;
  for (let bit = 0; bit < 8; bit++) {
    const carry = lo & 1;
    lo = ((lo >>> 1) | ((hi & 1) << 31)) >>> 0;
    hi = hi >>> 1;
    if (carry) {
      hi = (hi ^ 0xc96c5795) >>> 0;
      lo = (lo ^ 0xd7870f42) >>> 0;
    }
  }
  CRC_TABLE_HI[n] = hi;
  CRC_TABLE_LO[n] = lo;
}

/** A running CRC-64/ECMA (Go's `crc64.New(crc64.MakeTable(crc64.ECMA))`). */
export class Crc64 {
  private hi = 0xffffffff;
  private lo = 0xffffffff;

  update(bytes: Uint8Array): this {
    let { hi, lo } = this;
    for (let i = 0; i < bytes.length; i++) {
      const index = (lo ^ bytes[i]!) & 0xff;
      lo = ((lo >>> 8) | (hi << 24)) ^ CRC_TABLE_LO[index]!;
      hi = (hi >>> 8) ^ CRC_TABLE_HI[index]!;
    }
    this.hi = hi >>> 0;
    this.lo = lo >>> 0;
    return this;
  }

  /** The CRC as an unsigned 64-bit integer. */
  value(): bigint {
    return (BigInt((~this.hi >>> 0) >>> 0) << 32n) | BigInt((~this.lo >>> 0) >>> 0);
  }
}

export interface ArchiveHeader {
  concurrentCollections: number;
  formatVersion: string;
  serverVersion: string;
  toolVersion: string;
}

/** What a collection's `metadata` holds: what mongodump writes to `<collection>.metadata.json`. */
export interface CollectionMetadataJson {
  options?: Record<string, unknown>;
  indexes: Array<Record<string, unknown> & { key: Record<string, unknown>; name: string }>;
  uuid?: string;
  collectionName: string;
  type: string;
}

export interface ArchiveCollection {
  db: string;
  collection: string;
  metadata: CollectionMetadataJson;
  /** The collection's size in bytes as the server reports it (mongorestore shows progress with it). */
  size: number;
  type: string;
}

export interface ArchivePrelude {
  header: ArchiveHeader;
  collections: ArchiveCollection[];
}

/** A whole number as BSON int32 when it fits, else int64, as Go's BSON encoder writes an `int`. */
function bsonInt(n: number) {
  return Number.isSafeInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 ? new BSON.Int32(n) : BSON.Long.fromNumber(n);
}

function namespaceHeader(db: string, collection: string, eof: boolean, crc: bigint): Buffer {
  return Buffer.from(BSON.serialize({ db, collection, EOF: eof, CRC: BSON.Long.fromBigInt(BigInt.asIntN(64, crc)) }));
}

/** The magic number, the header and every collection's metadata, then the terminator. */
export function preludeBytes({ header, collections }: ArchivePrelude): Buffer {
  const parts: Buffer[] = [ARCHIVE_MAGIC];
  parts.push(
    Buffer.from(
      BSON.serialize({
        concurrent_collections: new BSON.Int32(header.concurrentCollections),
        version: header.formatVersion,
        server_version: header.serverVersion,
        tool_version: header.toolVersion,
      }),
    ),
  );
  for (const c of collections) {
    const metadata = BSON.EJSON.stringify(c.metadata, { relaxed: false });
    parts.push(Buffer.from(BSON.serialize({ db: c.db, collection: c.collection, metadata, size: bsonInt(c.size), type: c.type })));
  }
  parts.push(TERMINATOR);
  return Buffer.concat(parts);
}

/**
 * The archive's bytes, in chunks: the prelude, then each collection's documents (raw BSON, as the driver's `raw`
 * reads answer them) in a namespace block closed by its EOF block. `documentsOf` is asked for one collection at a
 * time, so only one cursor is open and memory holds at most a chunk.
 */
export async function* archiveChunks(
  prelude: ArchivePrelude,
  documentsOf: (collection: ArchiveCollection) => AsyncIterable<Uint8Array>,
): AsyncGenerator<Buffer> {
  yield preludeBytes(prelude);
  for (const collection of prelude.collections) {
    const crc = new Crc64();
    let pending: Buffer[] = [namespaceHeader(collection.db, collection.collection, false, 0n)];
    let pendingBytes = pending[0]!.length;
    for await (const document of documentsOf(collection)) {
      const bytes = Buffer.from(document.buffer, document.byteOffset, document.byteLength);
      if (bytes.length < 5 || bytes.readInt32LE(0) !== bytes.length || bytes[bytes.length - 1] !== 0) {
        throw new ArchiveError(`A document of ${collection.collection} is not one whole BSON document (${bytes.length} bytes).`);
      }
      crc.update(bytes);
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= CHUNK_BYTES) {
        yield Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
      }
    }
    pending.push(TERMINATOR, namespaceHeader(collection.db, collection.collection, true, crc.value()), TERMINATOR);
    yield Buffer.concat(pending);
  }
}

export type ArchiveEvent =
  | { kind: 'prelude'; prelude: ArchivePrelude }
  | { kind: 'document'; collection: string; bytes: Buffer }
  | { kind: 'collection-end'; collection: string; documents: number };

/** Reads exact lengths from a stream of chunks. */
class ChunkReader {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private readonly iterator: AsyncIterator<Buffer | string>;
  private done = false;

  constructor(source: AsyncIterable<Buffer | string>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** `length` bytes, or fewer only when the stream ends first. */
  async read(length: number): Promise<Buffer> {
    while (this.bufferedBytes < length && !this.done) {
      const next = await this.iterator.next();
      if (next.done) {
        this.done = true;
        break;
      }
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      this.buffered.push(chunk);
      this.bufferedBytes += chunk.length;
    }
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered, this.bufferedBytes);
    const taken = all.subarray(0, Math.min(length, all.length));
    const rest = all.subarray(taken.length);
    this.buffered = rest.length ? [rest] : [];
    this.bufferedBytes = rest.length;
    return taken;
  }
}

function parseDocument(bytes: Buffer, what: string): Record<string, unknown> {
  try {
    return BSON.deserialize(bytes, { promoteLongs: false });
  } catch (err) {
    throw new ArchiveError(`The archive's ${what} is not a BSON document: ${(err as Error).message}`);
  }
}

const textOf = (value: unknown, field: string, what: string): string => {
  if (typeof value !== 'string') throw new ArchiveError(`The archive's ${what} has no ${field}.`);
  return value;
};

const numberOf = (value: unknown): number =>
  value instanceof BSON.Long ? value.toNumber() : value instanceof BSON.Int32 || value instanceof BSON.Double ? value.valueOf() : Number(value ?? 0);

/**
 * Reads an archive as mongorestore does: the magic number, the prelude, then every block, checking each collection's
 * CRC at its EOF block and that every collection of the prelude was closed. Yields the prelude first, then each
 * document (its raw bytes) and each collection's end, in the order they come.
 */
export async function* readArchive(source: AsyncIterable<Buffer | string>): AsyncGenerator<ArchiveEvent> {
  const reader = new ChunkReader(source);
  const magic = await reader.read(4);
  if (magic.length < 4 || !magic.equals(ARCHIVE_MAGIC))
    throw new ArchiveError('This file is not a mongodump archive: it does not start with its magic number.');

  /** The next BSON document, or 'terminator', or 'end' when the stream ends where a block may end. */
  async function next(what: string, endAllowed: boolean): Promise<Buffer | 'terminator' | 'end'> {
    const lengthBytes = await reader.read(4);
    if (lengthBytes.length === 0 && endAllowed) return 'end';
    if (lengthBytes.length < 4) throw new ArchiveError(`The archive ends in the middle of ${what}: it is cut short.`);
    if (lengthBytes.equals(TERMINATOR)) return 'terminator';
    const length = lengthBytes.readInt32LE(0);
    if (length < 5 || length > MAX_BSON_SIZE)
      throw new ArchiveError(`The archive is damaged: ${length} is neither a BSON length nor a terminator (in ${what}).`);
    const rest = await reader.read(length - 4);
    if (rest.length < length - 4) throw new ArchiveError(`The archive ends in the middle of ${what}: it is cut short.`);
    if (rest[rest.length - 1] !== 0) throw new ArchiveError(`The archive is damaged: a BSON document in ${what} does not end with a zero byte.`);
    return Buffer.concat([lengthBytes, rest], length);
  }

  const headerBytes = await next('the header', false);
  if (!Buffer.isBuffer(headerBytes)) throw new ArchiveError('The archive has no header after its magic number.');
  const header = parseDocument(headerBytes, 'header');
  const prelude: ArchivePrelude = {
    header: {
      concurrentCollections: numberOf(header.concurrent_collections),
      formatVersion: textOf(header.version, 'version', 'header'),
      serverVersion: typeof header.server_version === 'string' ? header.server_version : '',
      toolVersion: typeof header.tool_version === 'string' ? header.tool_version : '',
    },
    collections: [],
  };
  if (prelude.header.formatVersion !== ARCHIVE_FORMAT_VERSION) {
    throw new ArchiveError(`The archive's format version is ${prelude.header.formatVersion}; this reader knows ${ARCHIVE_FORMAT_VERSION}.`);
  }
  for (;;) {
    const item = await next('the prelude', false);
    if (item === 'terminator') break;
    if (item === 'end') throw new ArchiveError('The archive ends in its prelude.');
    const doc = parseDocument(item, 'collection metadata');
    const collection = textOf(doc.collection, 'collection', 'collection metadata');
    let metadata: CollectionMetadataJson;
    try {
      // Relaxed: index keys and options as plain numbers, as the driver's createIndexes takes them.
      metadata = BSON.EJSON.parse(typeof doc.metadata === 'string' && doc.metadata ? doc.metadata : '{}', { relaxed: true }) as CollectionMetadataJson;
    } catch (err) {
      throw new ArchiveError(`The metadata of ${collection} in the archive is not Extended JSON: ${(err as Error).message}`);
    }
    metadata.indexes ??= [];
    prelude.collections.push({
      db: textOf(doc.db, 'db', 'collection metadata'),
      collection,
      metadata,
      size: numberOf(doc.size),
      type: typeof doc.type === 'string' && doc.type ? doc.type : 'collection',
    });
  }
  yield { kind: 'prelude', prelude };

  const open = new Map<string, { crc: Crc64; documents: number }>();
  const closed = new Set<string>();
  const known = new Set(prelude.collections.map((c) => `${c.db}.${c.collection}`));
  for (;;) {
    const headerItem = await next('a block header', true);
    if (headerItem === 'end') break;
    if (headerItem === 'terminator') throw new ArchiveError('The archive is damaged: a block has no header (two terminators in a row).');
    const blockHeader = parseDocument(headerItem, 'block header');
    const db = textOf(blockHeader.db, 'db', 'block header');
    const collection = textOf(blockHeader.collection, 'collection', 'block header');
    const namespace = `${db}.${collection}`;
    if (!known.has(namespace)) throw new ArchiveError(`The archive holds documents of ${namespace}, which its prelude does not list.`);
    if (closed.has(namespace)) throw new ArchiveError(`The archive holds a block of ${namespace} after its end.`);
    let state = open.get(namespace);
    if (!state) open.set(namespace, (state = { crc: new Crc64(), documents: 0 }));
    if (blockHeader.EOF === true) {
      const crc = blockHeader.CRC instanceof BSON.Long ? BigInt.asUintN(64, blockHeader.CRC.toBigInt()) : BigInt(numberOf(blockHeader.CRC));
      if (crc !== state.crc.value()) {
        throw new ArchiveError(
          `The archive is damaged: the documents of ${collection} do not give the CRC its end records (${crc.toString(16)} recorded, ${state.crc.value().toString(16)} read).`,
        );
      }
      if ((await next(`the end of ${collection}`, false)) !== 'terminator')
        throw new ArchiveError(`The archive is damaged: the end of ${collection} is not followed by a terminator.`);
      open.delete(namespace);
      closed.add(namespace);
      yield { kind: 'collection-end', collection, documents: state.documents };
      continue;
    }
    for (;;) {
      const item = await next(`the documents of ${collection}`, false);
      if (item === 'terminator') break;
      if (item === 'end') throw new ArchiveError(`The archive ends in the middle of the documents of ${collection}: it is cut short.`);
      state.crc.update(item);
      state.documents++;
      yield { kind: 'document', collection, bytes: item };
    }
  }
  const unfinished = [...known].filter((namespace) => !closed.has(namespace));
  if (unfinished.length) throw new ArchiveError(`The archive ends before the end of ${unfinished.join(', ')}: it is cut short.`);
}
