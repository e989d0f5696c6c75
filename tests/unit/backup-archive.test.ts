/**
 * The backup's archive against the mongodump archive format as mongo-tools documents it (common/archive/spec.md):
 * read here by a reader of the test's own, written from that description, with a CRC-64 computed bit by bit; and
 * archives built here byte by byte (interleaved blocks, as a parallel mongodump writes them) read by ours.
 */
import mongoose from 'mongoose';
import { archiveChunks, ArchiveError, Crc64, readArchive, type ArchiveEvent, type ArchivePrelude } from '../../server/backup/archive';

const { BSON } = mongoose.mongo;

/** CRC-64 as Go's hash/crc64 with its ECMA table computes it: reflected 0xC96C5795D7870F42, all ones in and out. */
function crc64Bitwise(bytes: Uint8Array): bigint {
  let crc = 0xffffffffffffffffn;
  for (const byte of bytes) {
    crc ^= BigInt(byte);
    for (let bit = 0; bit < 8; bit++) crc = crc & 1n ? (crc >> 1n) ^ 0xc96c5795d7870f42n : crc >> 1n;
  }
  return crc ^ 0xffffffffffffffffn;
}

const doc = (value: Record<string, unknown>) => Buffer.from(BSON.serialize(value));
const TERMINATOR = [0xff, 0xff, 0xff, 0xff];

/** The spec's grammar, read from the front: each call takes one BSON document or a terminator. */
function specReader(bytes: Buffer) {
  let at = 0;
  return {
    magic() {
      const magic = [...bytes.subarray(at, at + 4)];
      at += 4;
      return magic;
    },
    next(): Buffer | 'terminator' {
      if (bytes.readUInt32LE(at) === 0xffffffff) {
        at += 4;
        return 'terminator';
      }
      const length = bytes.readInt32LE(at);
      const document = bytes.subarray(at, at + length);
      at += length;
      return document;
    },
    atEnd: () => at === bytes.length,
  };
}

const alice = doc({
  _id: 'a',
  n: new BSON.Int32(1),
  f: new BSON.Double(2),
  l: BSON.Long.fromNumber(3),
  when: new Date(0),
  bin: new BSON.Binary(Buffer.from('hi')),
});
const bob = doc({ _id: 'b', nested: { list: [1, 'two'] } });

const prelude: ArchivePrelude = {
  header: { concurrentCollections: 1, formatVersion: '0.1', serverVersion: '7.0.42', toolVersion: 'knack-backup 0.1.0' },
  collections: [
    {
      db: 'knack',
      collection: 'users',
      metadata: {
        indexes: [
          { v: 2, key: { _id: 1 }, name: '_id_' },
          { v: 2, key: { email: 1 }, name: 'email_1', unique: true },
        ],
        uuid: 'b0476ed8fe534609920d5767dc42b7d1',
        collectionName: 'users',
        type: 'collection',
      },
      size: 4096,
      type: 'collection',
    },
    {
      db: 'knack',
      collection: 'empty',
      metadata: { indexes: [{ v: 2, key: { _id: 1 }, name: '_id_' }], collectionName: 'empty', type: 'collection' },
      size: 0,
      type: 'collection',
    },
  ],
};

async function written(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const documents: Record<string, Buffer[]> = { users: [alice, bob], empty: [] };
  for await (const chunk of archiveChunks(prelude, async function* (c) {
    yield* documents[c.collection]!;
  })) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function eventsOf(bytes: Buffer): Promise<ArchiveEvent[]> {
  const events: ArchiveEvent[] = [];
  // In small chunks, as a file or a gunzip stream hands them over.
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
  }
  for await (const event of readArchive(chunks())) events.push(event);
  return events;
}

describe('CRC-64/ECMA of the EOF blocks', () => {
  it('when computed on the standard check input, then it is the published check value of Go’s ECMA table (CRC-64/XZ)', () => {
    expect(crc64Bitwise(Buffer.from('123456789')).toString(16)).toBe('995dc9bbdf1939fa');
    expect(new Crc64().update(Buffer.from('123456789')).value().toString(16)).toBe('995dc9bbdf1939fa');
  });

  it('when fed in pieces, then it is the bitwise CRC of all the bytes', () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 131 + 7) & 0xff));
    expect(new Crc64().update(bytes.subarray(0, 1000)).update(bytes.subarray(1000)).value()).toBe(crc64Bitwise(bytes));
  });
});

describe('writing the archive', () => {
  it('when written, then it is the magic number, the prelude and one block and one EOF block per collection, as the spec lays them out', async () => {
    const reader = specReader(await written());
    expect(reader.magic()).toEqual([0x6d, 0xe2, 0x99, 0x81]);

    const header = reader.next() as Buffer;
    const headerDoc = BSON.deserialize(header, { promoteValues: false });
    expect(Object.keys(headerDoc)).toEqual(['concurrent_collections', 'version', 'server_version', 'tool_version']);
    expect(headerDoc.concurrent_collections).toEqual(new BSON.Int32(1));
    expect(headerDoc).toMatchObject({ version: '0.1', server_version: '7.0.42', tool_version: 'knack-backup 0.1.0' });

    const users = BSON.deserialize(reader.next() as Buffer, { promoteValues: false });
    expect(Object.keys(users)).toEqual(['db', 'collection', 'metadata', 'size', 'type']);
    expect(users).toMatchObject({ db: 'knack', collection: 'users', size: new BSON.Int32(4096), type: 'collection' });
    // Canonical Extended JSON v2, as mongodump writes metadata.json.
    expect(JSON.parse(users.metadata as string)).toEqual({
      indexes: [
        { v: { $numberInt: '2' }, key: { _id: { $numberInt: '1' } }, name: '_id_' },
        { v: { $numberInt: '2' }, key: { email: { $numberInt: '1' } }, name: 'email_1', unique: true },
      ],
      uuid: 'b0476ed8fe534609920d5767dc42b7d1',
      collectionName: 'users',
      type: 'collection',
    });
    const empty = BSON.deserialize(reader.next() as Buffer);
    expect(empty).toMatchObject({ db: 'knack', collection: 'empty', size: 0 });
    expect(reader.next()).toBe('terminator');

    const usersHeader = BSON.deserialize(reader.next() as Buffer, { promoteValues: false });
    expect(Object.keys(usersHeader)).toEqual(['db', 'collection', 'EOF', 'CRC']);
    expect(usersHeader).toEqual({ db: 'knack', collection: 'users', EOF: false, CRC: BSON.Long.fromNumber(0) });
    expect(reader.next()).toEqual(alice);
    expect(reader.next()).toEqual(bob);
    expect(reader.next()).toBe('terminator');
    const usersEnd = BSON.deserialize(reader.next() as Buffer, { promoteValues: false });
    expect(usersEnd).toEqual({
      db: 'knack',
      collection: 'users',
      EOF: true,
      CRC: BSON.Long.fromBigInt(BigInt.asIntN(64, crc64Bitwise(Buffer.concat([alice, bob])))),
    });
    expect(reader.next()).toBe('terminator');

    // An empty collection: its header and no document, then its EOF with the CRC of nothing.
    expect(BSON.deserialize(reader.next() as Buffer)).toMatchObject({ collection: 'empty', EOF: false });
    expect(reader.next()).toBe('terminator');
    expect(BSON.deserialize(reader.next() as Buffer, { promoteValues: false })).toEqual({
      db: 'knack',
      collection: 'empty',
      EOF: true,
      CRC: BSON.Long.fromNumber(0),
    });
    expect(reader.next()).toBe('terminator');
    expect(reader.atEnd()).toBe(true);
  });

  it('when a document is not one whole BSON document, then writing stops with the collection named', async () => {
    const broken = Buffer.concat([alice, Buffer.from([0])]);
    const writing = async () => {
      for await (const chunk of archiveChunks(prelude, async function* () {
        yield broken;
      }))
        void chunk;
    };
    await expect(writing()).rejects.toThrow('A document of users is not one whole BSON document (');
  });
});

describe('reading an archive', () => {
  /** An archive built from the spec's grammar, with the blocks of two collections interleaved. */
  function handBuilt({ crcOfUsers }: { crcOfUsers?: bigint } = {}): Buffer {
    const carol = doc({ _id: 'c' });
    const meta = (collection: string) =>
      doc({ db: 'old', collection, metadata: JSON.stringify({ indexes: [], collectionName: collection, type: 'collection' }), size: 0, type: 'collection' });
    const header = (collection: string, eof: boolean, crc: bigint) =>
      doc({ db: 'old', collection, EOF: eof, CRC: BSON.Long.fromBigInt(BigInt.asIntN(64, crc)) });
    return Buffer.concat([
      Buffer.from([0x6d, 0xe2, 0x99, 0x81]),
      doc({ concurrent_collections: new BSON.Int32(4), version: '0.1', server_version: '6.0.0', tool_version: '100.9.0' }),
      meta('users'),
      meta('notes'),
      Buffer.from(TERMINATOR),
      header('users', false, 0n),
      alice,
      Buffer.from(TERMINATOR),
      header('notes', false, 0n),
      carol,
      Buffer.from(TERMINATOR),
      header('users', false, 0n),
      bob,
      Buffer.from(TERMINATOR),
      header('users', true, crcOfUsers ?? crc64Bitwise(Buffer.concat([alice, bob]))),
      Buffer.from(TERMINATOR),
      header('notes', true, crc64Bitwise(carol)),
      Buffer.from(TERMINATOR),
    ]);
  }

  it('when its blocks are interleaved, as a parallel mongodump writes them, then each document comes with its collection and each collection ends once', async () => {
    const events = await eventsOf(handBuilt());
    expect(events[0]).toMatchObject({
      kind: 'prelude',
      prelude: { header: { concurrentCollections: 4, serverVersion: '6.0.0' }, collections: [{ collection: 'users' }, { collection: 'notes' }] },
    });
    expect(
      events
        .slice(1)
        .map((e) =>
          e.kind === 'document'
            ? `${e.collection}:${BSON.deserialize(e.bytes)._id as string}`
            : e.kind === 'collection-end'
              ? `end ${e.collection} ${e.documents}`
              : e.kind,
        ),
    ).toEqual(['users:a', 'notes:c', 'users:b', 'end users 2', 'end notes 1']);
  });

  it('when our writer wrote it, then it reads back the same prelude and documents', async () => {
    const events = await eventsOf(await written());
    expect(events[0]).toEqual({ kind: 'prelude', prelude });
    expect(events.slice(1)).toEqual([
      { kind: 'document', collection: 'users', bytes: alice },
      { kind: 'document', collection: 'users', bytes: bob },
      { kind: 'collection-end', collection: 'users', documents: 2 },
      { kind: 'collection-end', collection: 'empty', documents: 0 },
    ]);
  });

  it('when a collection’s documents do not give the CRC its EOF block records, then reading stops there', async () => {
    await expect(eventsOf(handBuilt({ crcOfUsers: 12345n }))).rejects.toThrow(
      new ArchiveError(
        `The archive is damaged: the documents of users do not give the CRC its end records (3039 recorded, ${crc64Bitwise(Buffer.concat([alice, bob])).toString(16)} read).`,
      ),
    );
  });

  it('when a byte of a document was changed, then the CRC check refuses it', async () => {
    const bytes = await written();
    const at = bytes.indexOf(Buffer.from('hi'));
    bytes[at] = 'H'.charCodeAt(0);
    await expect(eventsOf(bytes)).rejects.toThrow('The archive is damaged: the documents of users do not give the CRC its end records');
  });

  it('when the file is not an archive, then it says so', async () => {
    await expect(eventsOf(Buffer.concat([alice, bob]))).rejects.toThrow(
      new ArchiveError('This file is not a mongodump archive: it does not start with its magic number.'),
    );
  });

  it('when the archive is cut short, then it says so, wherever the cut is', async () => {
    const bytes = await written();
    await expect(eventsOf(bytes.subarray(0, bytes.length - 4))).rejects.toThrow(
      new ArchiveError('The archive ends in the middle of the end of empty: it is cut short.'),
    );
    const beforeEnds = bytes.subarray(0, bytes.indexOf(bob) + 3);
    await expect(eventsOf(beforeEnds)).rejects.toThrow(new ArchiveError('The archive ends in the middle of the documents of users: it is cut short.'));
    const withoutLastCollection = bytes.subarray(0, bytes.lastIndexOf(doc({ db: 'knack', collection: 'empty', EOF: false, CRC: BSON.Long.fromNumber(0) })));
    await expect(eventsOf(withoutLastCollection)).rejects.toThrow(new ArchiveError('The archive ends before the end of knack.empty: it is cut short.'));
  });
});
