/**
 * The file storage failing during an upload, with the S3 driver against a real S3-compatible server (s3rver) seen
 * through a stand-in gateway that refuses what a test tells it to (503 SlowDown, as S3 answers when it cannot
 * take a request). The uploader gets a clear 503 with `Retry-After`, no upload is half-made, and the files
 * already stored are removed at once; when the storage refuses that removal too, they are listed, and the
 * housekeeping job removes them once the storage is back: the bucket ends empty.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Types } from 'mongoose';
import pino from 'pino';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { s3Storage } from '../../server/integrations/storage';
import { RETRY_AFTER_OUTAGE_SECONDS } from '../../server/lib/errors';
import { LeftFileModel, mediaHousekeeping, STORAGE_DOWN_MESSAGE, StoredFileModel, UploadModel } from '../../server/modules/media';
import { createTestApp, createTestServices } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import type { Member } from '../helpers/e2e-pieces';
import { png, wav } from '../helpers/media';
import { startSmtpServer } from '../helpers/smtp';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
// s3rver ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;

useTestDatabase();

const BUCKET = 'knack-outage';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const workDir = mkdtempSync(path.join(os.tmpdir(), 'knack-storage-outage-'));
let s3rver: S3rverInstance;
let gateway: Server;
/** What the gateway refuses: PUTs of keys ending so, and deletes (S3's `POST ?delete`). */
const refuse = { putsEndingWith: null as string | null, deletes: false };
const refused: string[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let services: ReturnType<typeof createTestServices>;
let storage: ReturnType<typeof s3Storage>;
let direct: ReturnType<typeof s3Storage>;
let ana: Member;

/** Every key in the bucket, asked of s3rver itself rather than through the gateway. */
async function bucketKeys(): Promise<string[]> {
  const listed = await direct.client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

function startGateway(target: number): Promise<string> {
  gateway = http.createServer((req, res) => {
    const key = decodeURIComponent(new URL(req.url!, 'http://gateway').pathname);
    const isDelete = req.method === 'POST' && new URL(req.url!, 'http://gateway').searchParams.has('delete');
    if ((req.method === 'PUT' && refuse.putsEndingWith && key.endsWith(refuse.putsEndingWith)) || (isDelete && refuse.deletes)) {
      refused.push(`${req.method} ${key}`);
      req.resume();
      res.writeHead(503, { 'Content-Type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
      return;
    }
    const forward = http.request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  return new Promise((resolve) => gateway.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  await seedReferenceData();
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(workDir, 's3rver'), configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  const endpoint = await startGateway(port);
  storage = s3Storage({ bucket: BUCKET, region: 'us-east-1', endpoint, forcePathStyle: true, ...CREDENTIALS });
  direct = s3Storage({ bucket: BUCKET, region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, ...CREDENTIALS });
  smtp = await startSmtpServer();
  const mailer = smtpMailer(smtp.url, 'x@knack.test');
  services = createTestServices({ storage, mailer });
  app = createTestApp({ services, storage, mailer });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
});

afterEach(() => {
  refuse.putsEndingWith = null;
  refuse.deletes = false;
});

afterAll(async () => {
  storage?.client.destroy();
  direct?.client.destroy();
  gateway?.close();
  if (s3rver) {
    const closed = s3rver.close();
    s3rver.httpServer.closeAllConnections();
    await closed;
  }
  await smtp?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

const uploadsOfAna = () => UploadModel.countDocuments({ ownerId: new Types.ObjectId(ana.user.id) });
const housekeeping = () => mediaHousekeeping({ media: services.media, storage, logger: pino({ level: 'silent' }) });

describe('an upload the file storage refuses half-way', () => {
  it('when one thumbnail of a photo cannot be stored, then 503 with Retry-After and the message, no upload, and the files stored meanwhile are removed at once', async () => {
    refuse.putsEndingWith = '-hthumb.webp';
    const res = await request(app)
      .post('/api/v2/content/upload-photo')
      .set('Authorization', `Bearer ${ana.token}`)
      .attach('file', await png(), 'cover.png');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_OUTAGE_SECONDS));
    expect(res.body).toEqual({ message: STORAGE_DOWN_MESSAGE, code: 'unavailable', requestId: expect.any(String) });
    expect(refused.some((line) => line.startsWith('PUT ') && line.endsWith('-hthumb.webp'))).toBe(true);
    expect(await uploadsOfAna()).toBe(0);
    expect(await StoredFileModel.countDocuments({})).toBe(0);
    expect(await LeftFileModel.countDocuments({})).toBe(0);
    expect(await bucketKeys()).toEqual([]);

    // The storage is back: the same upload goes through, five files stored.
    refuse.putsEndingWith = null;
    await request(app)
      .post('/api/v2/content/upload-photo')
      .set('Authorization', `Bearer ${ana.token}`)
      .attach('file', await png(), 'cover.png')
      .expect(201);
    expect(await uploadsOfAna()).toBe(1);
    expect(await bucketKeys()).toHaveLength(5);
    await UploadModel.deleteMany({});
    await StoredFileModel.deleteMany({});
    await direct.delete(await bucketKeys());
  });

  it('when the audio is stored but its waveform is refused, and the storage then refuses to remove the audio too, then the audio is listed and the housekeeping job removes it once the storage is back', async () => {
    refuse.putsEndingWith = '-peaks.json';
    refuse.deletes = true;
    const res = await request(app).post('/api/v2/content/upload-audio').set('Authorization', `Bearer ${ana.token}`).attach('file', wav(1), 'song.wav');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ message: STORAGE_DOWN_MESSAGE, code: 'unavailable' });
    expect(await uploadsOfAna()).toBe(0);
    expect(await StoredFileModel.countDocuments({})).toBe(0);
    const [audioKey] = await bucketKeys();
    expect(await bucketKeys()).toEqual([expect.stringMatching(/^audio\/\d{4}\/\d{2}\/[0-9a-f]{24}\.wav$/)]);
    const listed = (await LeftFileModel.find({}).lean()).map((file) => file._id).sort();
    expect(listed).toEqual([audioKey, audioKey!.replace(/\.wav$/, '-peaks.json')].sort());

    // Still refused: housekeeping fails and keeps them listed for its next run.
    await expect(housekeeping()).rejects.toThrow();
    expect(await LeftFileModel.countDocuments({})).toBe(2);
    expect(await bucketKeys()).toEqual([audioKey]);

    refuse.deletes = false;
    refuse.putsEndingWith = null;
    expect(await housekeeping()).toMatchObject({ leftFilesRemoved: 2 });
    expect(await bucketKeys()).toEqual([]);
    expect(await LeftFileModel.countDocuments({})).toBe(0);
  });
});
