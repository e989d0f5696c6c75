/**
 * The S3 driver against a real S3-compatible server on loopback (the s3rver package), and the same
 * behavioural checks against the local driver, so the two are proven to behave alike.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { localStorage, s3Storage, type S3StorageOptions, type Storage } from '../../server/integrations/storage';

interface S3rverOptions {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
// s3rver ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: S3rverOptions) => S3rverInstance;

const BUCKET = 'knack-test';
/** s3rver's built-in account. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
/** 12 MiB: lib-storage sends it to S3 as a multipart upload of three 5 MiB parts. */
const BIG_SIZE = 12 * 1024 * 1024 + 123;
const PART = 5 * 1024 * 1024;

const workDir = mkdtempSync(path.join(os.tmpdir(), 'knack-storage-test-'));
const bigFile = path.join(workDir, 'big.bin');
const bigBytes = randomBytes(BIG_SIZE);
writeFileSync(bigFile, bigBytes);

let server: S3rverInstance;
let endpoint = '';
/** Requests that reached the S3 server. */
let serverRequests = 0;
const clients: S3Client[] = [];

function s3(options: Partial<S3StorageOptions> = {}) {
  const storage = s3Storage({ bucket: BUCKET, region: 'us-east-1', endpoint, forcePathStyle: true, ...CREDENTIALS, ...options });
  clients.push(storage.client);
  return storage;
}

beforeAll(async () => {
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(workDir, 's3rver'),
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  server.httpServer.on('request', () => serverRequests++);
});

afterAll(async () => {
  for (const client of clients) client.destroy();
  if (server) {
    const closed = server.close();
    server.httpServer.closeAllConnections();
    await closed;
  }
  rmSync(workDir, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Records the commands a client sends (name and input) until stop() is called. */
function recordCommands(client: S3Client) {
  const name = `record-${Math.random().toString(36).slice(2)}`;
  const calls: { command: string; input: Record<string, unknown> }[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({ command: context.commandName ?? '', input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { calls, stop: () => client.middlewareStack.remove(name) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function filesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

interface DriverCase {
  name: 'local' | 's3';
  create(): Storage;
  /** The URL publicUrl gives for `key`. */
  url(key: string): string;
  /** Something that grows when the driver touches its backend (server requests, files on disk). */
  activity(): number;
  /**
   * stat of an unsafe key: the S3 driver throws; local.driver.ts catches every error in stat, the
   * unsafe-key one included, and answers undefined. Either way nothing is touched.
   */
  unsafeStat: 'throws' | 'undefined';
}

const localParent = path.join(workDir, 'local');
const drivers: DriverCase[] = [
  {
    name: 'local',
    create: () => localStorage(path.join(localParent, 'uploads')),
    url: (key) => `/files/${key}`,
    activity: () => filesUnder(localParent),
    unsafeStat: 'throws',
  },
  {
    name: 's3',
    create: () => s3(),
    url: (key) => `${endpoint}/${BUCKET}/${key}`,
    activity: () => serverRequests,
    unsafeStat: 'throws',
  },
];

describe.each(drivers)('the $name storage driver', (driver) => {
  let storage: Storage;
  beforeAll(() => {
    storage = driver.create();
  });

  it('when a multi-megabyte file is stored, then it reads back byte for byte and stat gives its size', async () => {
    const key = 'audio/2026/11/big.mp3';
    await storage.putFile(key, bigFile, 'audio/mpeg');

    expect(existsSync(bigFile)).toBe(true); // the caller's file is left in place
    const back = await readAll(await storage.read(key));
    expect(back.length).toBe(BIG_SIZE);
    expect(sha256(back)).toBe(sha256(bigBytes));
    const info = await storage.stat(key);
    expect(info?.size).toBe(BIG_SIZE);
    expect(Math.abs(info!.mtime.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it.each([
    // Not 0-0: s3rver answers bytes=0-0 with the whole object (its store reads `end || Infinity`).
    ['the first bytes', 0, 99],
    ['a single byte', 1, 1],
    ['a span across a part boundary', PART - 10, PART + 9],
    ['the last bytes', BIG_SIZE - 100, BIG_SIZE - 1],
  ])('when %s is read as a range, then exactly those bytes come back', async (_label, start, end) => {
    const key = 'audio/2026/11/big.mp3';
    const bytes = await readAll(await storage.read(key, { start, end }));
    expect(bytes.length).toBe(end - start + 1);
    expect(bytes.equals(bigBytes.subarray(start, end + 1))).toBe(true);
  });

  it('when a buffer is stored, then stat and read give it back', async () => {
    const key = 'images/2026/11/thumb-s.webp';
    const body = Buffer.from('RIFF....WEBPVP8 small thumbnail bytes');
    await storage.putBuffer(key, body, 'image/webp');

    expect((await storage.stat(key))?.size).toBe(body.length);
    expect((await readAll(await storage.read(key))).equals(body)).toBe(true);
  });

  it('when a key was never stored, then stat is undefined and reading it fails', async () => {
    expect(await storage.stat('images/never/stored.webp')).toBeUndefined();
    await expect((async () => readAll(await storage.read('images/never/stored.webp')))()).rejects.toThrow();
  });

  it('when the local file to store is missing, then putFile fails and nothing is stored', async () => {
    const key = 'audio/2026/11/missing.mp3';
    await expect(storage.putFile(key, path.join(workDir, 'no-such-file.mp3'), 'audio/mpeg')).rejects.toThrow(/ENOENT/);
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('when existing and missing keys are deleted together, then the existing ones are gone and the missing ones are ignored', async () => {
    const keys = ['images/2026/11/del-a.webp', 'images/2026/11/del-b.webp'];
    for (const key of keys) await storage.putBuffer(key, Buffer.from(key), 'image/webp');

    await storage.delete([...keys, 'images/2026/11/never-there.webp']);
    for (const key of keys) expect(await storage.stat(key)).toBeUndefined();
    await expect(storage.delete(['images/2026/11/never-there.webp'])).resolves.toBeUndefined();
    await expect(storage.delete([])).resolves.toBeUndefined();
  });

  it('when publicUrl is asked for a key, then it gives the URL browsers load the object from', () => {
    expect(storage.publicUrl('images/2026/11/abc.webp')).toBe(driver.url('images/2026/11/abc.webp'));
  });

  it.each(['../x', 'a//b', 'A.png', '/etc/passwd', 'images/../../x.png', 'images/x.png?', ''])(
    'when the key is %p, then every call throws before touching the backend',
    async (key) => {
      const before = driver.activity();
      const unsafe = /Unsafe storage key/;
      await expect(storage.putFile(key, bigFile, 'image/png')).rejects.toThrow(unsafe);
      await expect(storage.putBuffer(key, Buffer.from('x'), 'image/png')).rejects.toThrow(unsafe);
      await expect(storage.delete(['images/ok.png', key])).rejects.toThrow(unsafe);
      if (driver.unsafeStat === 'throws') await expect(storage.stat(key)).rejects.toThrow(unsafe);
      else expect(await storage.stat(key)).toBeUndefined();
      await expect(storage.read(key)).rejects.toThrow(unsafe);
      expect(driver.activity()).toBe(before);
    },
  );
});

describe('the s3 storage driver, S3 specifics', () => {
  let storage: ReturnType<typeof s3>;
  beforeAll(() => {
    storage = s3();
  });

  const head = (key: string) => storage.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));

  it('when a buffer or a file is stored, then the object carries its Content-Type and the five-minute Cache-Control of public files', async () => {
    const recorder = recordCommands(storage.client);
    try {
      await storage.putBuffer('images/2026/11/ct.webp', Buffer.from('webp'), 'image/webp');
      await storage.putFile('audio/2026/11/ct.mp3', bigFile, 'audio/mpeg');
    } finally {
      recorder.stop();
    }
    // The buffer in one PutObject; the file streamed as a multipart upload of 5 MiB parts.
    expect(recorder.calls.map((call) => call.command)).toEqual([
      'PutObjectCommand',
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);

    const image = await head('images/2026/11/ct.webp');
    expect(image).toMatchObject({ ContentType: 'image/webp', CacheControl: 'public, max-age=300, must-revalidate', ContentLength: 4 });
    const audio = await head('audio/2026/11/ct.mp3');
    expect(audio).toMatchObject({ ContentType: 'audio/mpeg', CacheControl: 'public, max-age=300, must-revalidate', ContentLength: BIG_SIZE });
  });

  it('when the public URL is loaded over HTTP, then the server sends the object with its stored headers', async () => {
    const key = 'images/2026/11/public.png';
    const body = randomBytes(2048);
    await storage.putBuffer(key, body, 'image/png');

    const response = await fetch(storage.publicUrl(key));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
  });

  it('when more than 1000 keys are deleted, then they go in batches of at most 1000 and all are removed', async () => {
    const keys = Array.from({ length: 2345 }, (_, i) => `images/batch/k${i}.webp`);
    const stored = [keys[0]!, keys[999]!, keys[1000]!, keys[2344]!];
    for (const key of stored) await storage.putBuffer(key, Buffer.from(key), 'image/webp');
    const recorder = recordCommands(storage.client);
    try {
      await storage.delete(keys);
    } finally {
      recorder.stop();
    }
    expect(recorder.calls.map((call) => call.command)).toEqual(Array(3).fill('DeleteObjectsCommand'));
    expect(recorder.calls.map((call) => (call.input as { Delete: { Objects: unknown[] } }).Delete.Objects.length)).toEqual([1000, 1000, 345]);
    for (const key of stored) expect(await storage.stat(key)).toBeUndefined();
  });

  it('when the credentials are wrong, then stat fails loudly instead of reporting the object missing', async () => {
    // s3rver checks the access key id (it does not verify V4 signatures).
    const wrong = s3({ accessKeyId: 'NOT-AN-ACCOUNT' });
    await storage.putBuffer('images/2026/11/exists.webp', Buffer.from('x'), 'image/webp');
    await expect(wrong.stat('images/2026/11/exists.webp')).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
  });

  it('when a range is not a valid byte span, then read throws before any request', async () => {
    const before = serverRequests;
    await expect(storage.read('audio/2026/11/big.mp3', { start: 10, end: 5 })).rejects.toThrow(RangeError);
    await expect(storage.read('audio/2026/11/big.mp3', { start: -1, end: 5 })).rejects.toThrow(RangeError);
    await expect(storage.read('audio/2026/11/big.mp3', { start: 0.5, end: 5 })).rejects.toThrow(RangeError);
    expect(serverRequests).toBe(before);
  });

  it('when publicUrl is asked for an unsafe key, then it throws', () => {
    for (const key of ['../x', 'a//b', 'A.png']) expect(() => storage.publicUrl(key)).toThrow(/Unsafe storage key/);
  });

  it.each<[string, Partial<S3StorageOptions>, string]>([
    ['AWS, virtual-hosted', { endpoint: undefined, forcePathStyle: false, region: 'eu-west-3' }, 'https://knack-test.s3.eu-west-3.amazonaws.com/images/a.webp'],
    ['AWS, path style', { endpoint: undefined, forcePathStyle: true, region: 'eu-west-3' }, 'https://s3.eu-west-3.amazonaws.com/knack-test/images/a.webp'],
    ['MinIO, path style', { endpoint: 'http://minio:9000/', forcePathStyle: true }, 'http://minio:9000/knack-test/images/a.webp'],
    ['an endpoint, virtual-hosted', { endpoint: 'https://storage.example', forcePathStyle: false }, 'https://knack-test.storage.example/images/a.webp'],
    ['a CDN in front', { endpoint: 'http://minio:9000', publicBaseUrl: 'https://cdn.knack.example/media/' }, 'https://cdn.knack.example/media/images/a.webp'],
  ])('when the bucket is on %s, then publicUrl has that form', (_label, options, url) => {
    expect(s3(options).publicUrl('images/a.webp')).toBe(url);
  });
});
