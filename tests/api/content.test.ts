import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { seedReferenceData } from '../../server/db/seed';
import { ContentModel } from '../../server/modules/contents';
import { RETRY_AFTER_OUTAGE_SECONDS } from '../../server/lib/errors';
import { STORAGE_DOWN_MESSAGE, StoredFileModel, UploadModel } from '../../server/modules/media';
import { SubscriptionModel } from '../../server/modules/subscriptions';
import { UserModel } from '../../server/modules/users';
import { createTestApp, TEST_JWT_SECRET } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { jpegWithExif, mp3, mp3LookingNut, png, wav } from '../helpers/media';
import { startSmtpServer } from '../helpers/smtp';
import { waitUntil } from '../helpers/wait';

useTestDatabase();

const root = mkdtempSync(path.join(os.tmpdir(), 'knack-media-test-'));
const storage = localStorage(root);
const tempUploads = mkdtempSync(path.join(os.tmpdir(), 'knack-content-temp-'));
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
type Member = Awaited<ReturnType<typeof createActiveMember>>;
let ana: Member;
let bea: Member;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test'), storage, uploadTempDir: tempUploads });
  await seedReferenceData();
  ana = await createActiveMember(app, smtp);
  bea = await createActiveMember(app, smtp);
});
afterAll(async () => {
  await smtp.stop();
  rmSync(root, { recursive: true, force: true });
  rmSync(tempUploads, { recursive: true, force: true });
});

const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const storedFiles = () => (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.[a-z0-9]+$/.test(f));
const tempFiles = () => {
  try {
    return readdirSync(tempUploads).filter((f) => !f.endsWith('.work'));
  } catch {
    return [];
  }
};

function uploadPhoto(m: Member, body: Buffer, name = 'cover.png', route = '/api/v2/content/upload-photo') {
  return request(app).post(route).set(bearer(m)).attach('file', body, name);
}
function uploadAudio(m: Member, body: Buffer | string, name = 'song.wav') {
  return request(app).post('/api/v2/content/upload-audio').set(bearer(m)).attach('file', body, name);
}
async function publishPhoto(m: Member, extra: object = {}) {
  const photo = await uploadPhoto(m, await png()).expect(201);
  const res = await request(app)
    .post('/api/v2/content/save')
    .set(bearer(m))
    .send({ title: 'Lisbon at dusk', description: 'Trams and light', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: photo.body.path, ...extra })
    .expect(201);
  return res.body.content as { id: string; filePath: string; thumbPath: string; setting: Record<string, boolean> };
}

describe('uploading images', () => {
  it('when a PNG is uploaded, then it is re-encoded with four WebP sizes under random names', async () => {
    const before = storedFiles().length;
    const res = await uploadPhoto(ana, await png(320, 200), '../../etc/My <Holiday>.png').expect(201);
    const { path: key, upload } = res.body;
    expect(key).toMatch(/^images\/\d{4}\/\d{2}\/[0-9a-f]{24}\.png$/);
    expect(upload).toMatchObject({ kind: 'image', status: 'ready', mimeType: 'image/png', width: 320, height: 200, originalName: 'My Holiday.png' });
    expect(Object.keys(upload.thumbs)).toEqual(['thumb', 'mthumb', 'hthumb', 'wthumb']);
    expect(storedFiles().length).toBe(before + 5);
    const wide = await sharp(path.join(root, key.replace('.png', '-wthumb.webp'))).metadata();
    expect(wide).toMatchObject({ format: 'webp', width: 1119, height: 305 });
    const square = await sharp(path.join(root, key.replace('.png', '-thumb.webp'))).metadata();
    expect(square).toMatchObject({ width: 240, height: 240 });
  });

  it('when a JPEG carries EXIF and GPS and a rotation, then the stored image and its sizes are turned upright and have no metadata', async () => {
    const res = await uploadPhoto(ana, await jpegWithExif(400, 200), 'camera.jpg').expect(201);
    const stored = await sharp(path.join(root, res.body.path)).metadata();
    expect(stored).toMatchObject({ format: 'jpeg', width: 200, height: 400 });
    expect(stored.exif).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    const size = await sharp(path.join(root, res.body.path.replace('.jpg', '-mthumb.webp'))).metadata();
    expect(size).toMatchObject({ format: 'webp', width: 200, height: 400 });
    expect(size.exif).toBeUndefined();
    expect(size.orientation).toBeUndefined();
  });

  it.each([
    ['an HTML page named .png', Buffer.from('<!doctype html><html><script>alert(1)</script></html>'), 'evil.png'],
    ['an SVG named .png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'), 'logo.png'],
    ['a GIF', Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex'), 'anim.png'],
  ])('when %s is uploaded, then 415 and nothing is stored', async (_name, body, name) => {
    const before = storedFiles().length;
    const res = await uploadPhoto(ana, body, name).expect(415);
    expect(res.body).toMatchObject({ code: 'unsupported_media_type', message: 'Only PNG and JPEG images are accepted.' });
    expect(storedFiles().length).toBe(before);
    expect(tempFiles()).toEqual([]);
  });

  it('when an image is over 20 MB, then 413 with the limit and no temp file left', async () => {
    const res = await uploadPhoto(ana, Buffer.alloc(21 * 1024 * 1024, 1), 'huge.png').expect(413);
    expect(res.body.message).toBe('Image size should be less than 20 MB.');
    expect(tempFiles()).toEqual([]);
  });

  it('when no file or two files are sent, then 400', async () => {
    await request(app).post('/api/v2/content/upload-photo').set(bearer(ana)).field('title', 'x').expect(400);
    const image = await png();
    const two = await request(app)
      .post('/api/v2/content/upload-photo')
      .set(bearer(ana))
      .attach('file', image, 'a.png')
      .attach('file', image, 'b.png')
      .expect(400);
    expect(two.body.message).toBe('Send exactly one file, in the field "file".');
  });

  it('when not signed in, then 401 before any byte is stored', async () => {
    await request(app)
      .post('/api/v2/content/upload-photo')
      .attach('file', await png(), 'a.png')
      .expect(401);
  });

  it('when storing one of the sizes fails, then nothing of the upload is left: no file, no file record, no upload', async () => {
    const failing = {
      ...storage,
      putBuffer: (key: string, body: Buffer, type: string) =>
        key.endsWith('-hthumb.webp') ? Promise.reject(new Error('disk full')) : storage.putBuffer(key, body, type),
    };
    const broken = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test'), storage: failing });
    const before = [storedFiles().length, await StoredFileModel.countDocuments(), await UploadModel.countDocuments()];
    const res = await request(broken)
      .post('/api/v2/content/upload-photo')
      .set(bearer(ana))
      .attach('file', await png(), 'a.png')
      .expect(503);
    expect(res.body).toMatchObject({ message: STORAGE_DOWN_MESSAGE, code: 'unavailable' });
    expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_OUTAGE_SECONDS));
    expect([storedFiles().length, await StoredFileModel.countDocuments(), await UploadModel.countDocuments()]).toEqual(before);
  });
});

describe('uploading audio', () => {
  it('when a WAV is uploaded, then its duration and a small waveform JSON are stored', async () => {
    const res = await uploadAudio(ana, wav(2)).expect(201);
    const { upload } = res.body;
    expect(upload).toMatchObject({ kind: 'audio', status: 'ready', mimeType: 'audio/wav' });
    expect(upload.duration).toBeCloseTo(2, 1);
    const peaksFile = path.join(root, res.body.path.replace('.wav', '-peaks.json'));
    const peaks: number[] = JSON.parse((await import('node:fs')).readFileSync(peaksFile, 'utf8'));
    expect(peaks.length).toBeGreaterThan(100);
    expect(peaks.length).toBeLessThanOrEqual(1000);
    expect(Math.max(...peaks)).toBe(1);
    expect(peaks[0]!).toBeLessThan(peaks[peaks.length - 1]!); // the tone fades in
    expect((await import('node:fs')).statSync(peaksFile).size).toBeLessThanOrEqual(16 * 1024);
  });

  it('when a large audio file is uploaded, then the answer comes at once and the waveform follows', async () => {
    const res = await uploadAudio(ana, wav(400, 8000)).expect(201); // 6.4 MB
    expect(res.body.upload.status).toBe('processing');
    let upload;
    await waitUntil(async () => (upload = await UploadModel.findOne({ key: res.body.path }).lean())?.status !== 'processing', { what: 'the waveform' });
    expect(upload).toMatchObject({ status: 'ready', waveformKey: expect.stringMatching(/-peaks\.json$/) });
  });

  it('when a disguised HTML file named .mp3 is uploaded, then 415', async () => {
    const res = await uploadAudio(ana, Buffer.from('<html><body>not music</body></html>'), 'song.mp3').expect(415);
    expect(res.body.message).toBe('Only audio files (MP3, WAV, OGG, FLAC, M4A or AAC) are accepted.');
  });

  /** Asserts that nothing of a refused upload is left: no stored file, no file record, no upload, no temp file. */
  async function nothingLeftOf(attempt: () => Promise<unknown>) {
    const [files, records, uploads] = [storedFiles().length, await StoredFileModel.countDocuments({}), await UploadModel.countDocuments({})];
    await attempt();
    expect([storedFiles().length, await StoredFileModel.countDocuments({}), await UploadModel.countDocuments({})]).toEqual([files, records, uploads]);
    expect(tempFiles()).toEqual([]);
  }

  it('when a file sniffed as MP3 holds another format that ffmpeg would find by guessing, then 415 and nothing is kept', async () => {
    await nothingLeftOf(async () => {
      const res = await uploadAudio(ana, mp3LookingNut(), 'song.mp3').expect(415);
      expect(res.body.message).toBe('This audio file could not be read. Please try another file.');
    });
  });

  it('when a song decodes to more audio than the longest accepted, then 413 saying the limit, and nothing is kept', async () => {
    const strict = createTestApp({ storage, uploadTempDir: tempUploads, decodeLimits: { maxSeconds: 60, timeoutMs: 120_000 } });
    await nothingLeftOf(async () => {
      // 2 minutes of audio in a file far below any size limit.
      const res = await request(strict).post('/api/v2/content/upload-audio').set(bearer(ana)).attach('file', mp3(120), 'long.mp3').expect(413);
      expect(res.body.message).toBe('This song is longer than 1 minute, the longest we accept.');
    });
  });

  it('when decoding takes longer than allowed, then ffmpeg is stopped, 415 says so, and nothing is kept', async () => {
    const hasty = createTestApp({ storage, uploadTempDir: tempUploads, decodeLimits: { maxSeconds: 3600, timeoutMs: 1 } });
    await nothingLeftOf(async () => {
      const res = await request(hasty).post('/api/v2/content/upload-audio').set(bearer(ana)).attach('file', wav(2), 'song.wav').expect(415);
      expect(res.body.message).toBe('This audio file took too long to read. Please try another file.');
    });
  });

  it('when an audio file is over 104857600 bytes, then 413 with the true limit and nothing left behind', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'knack-big-'));
    const big = path.join(dir, 'big.wav');
    writeFileSync(big, wav(0.1));
    await truncate(big, 101 * 1024 * 1024);
    const before = storedFiles().length;
    const res = await uploadAudio(ana, big).expect(413);
    expect(res.body.message).toBe('File size should be less than 100 MB.');
    expect(storedFiles().length).toBe(before);
    expect(tempFiles()).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('publishing (content/save)', () => {
  const save = (m: Member, body: object) => request(app).post('/api/v2/content/save').set(bearer(m)).send(body);

  it.each([
    [{ title: '' }, 'Title should not be empty', 'title'],
    [{ description: ' ' }, 'Description should not be empty', 'description'],
    [{ tags: [] }, 'Tags should not be empty', 'tags'],
    [{ photoPath: '' }, 'Should input photo', 'photoPath'],
  ])('when %p, then 400 "%s"', async (change, message, field) => {
    const photo = await uploadPhoto(ana, await png()).expect(201);
    const res = await save(ana, { title: 'T', description: 'D', tags: [{ name: 'Art' }], subTag: 'Pixel Art', photoPath: photo.body.path, ...change }).expect(
      400,
    );
    expect(res.body).toMatchObject({ message, errors: [{ path: field }] });
  });

  it('when the tag is Music and no audio is given, then "Should input audio"', async () => {
    const photo = await uploadPhoto(ana, await png()).expect(201);
    const res = await save(ana, { title: 'T', description: 'D', tags: [{ name: 'Music' }], subTag: 'Jazz', photoPath: photo.body.path }).expect(400);
    expect(res.body.message).toBe('Should input audio');
  });

  it('when a song is published under Music/Jazz with a cover, then the piece points at the song, cover, thumbnails and waveform', async () => {
    const photo = await uploadPhoto(ana, await png()).expect(201);
    const audio = await uploadAudio(ana, wav(1)).expect(201);
    const res = await save(ana, {
      title: 'Blue Hour',
      description: 'A late set',
      tags: [{ name: 'Music' }],
      subTag: 'Jazz',
      photoPath: photo.body.path,
      audioPath: audio.body.path,
    }).expect(201);
    expect(res.body.message).toBe('Success');
    expect(res.body.content).toMatchObject({
      title: 'Blue Hour',
      ownerId: ana.user.id,
      ownerUsername: ana.form.username,
      tags: [{ name: 'Music' }],
      subTag: 'Jazz',
      isAudio: true,
      isImage: false,
      fileType: 'audio/wav',
      filePath: `/files/${audio.body.path}`,
      coverPath: `/files/${photo.body.path}`,
      knackRate: 0.05,
      isPaidOut: false,
      setting: { public: true, private: false, followers: false, hidePlayCount: false, hideViewCount: false },
      processing: 'ready',
    });
    expect(res.body.content.waveformPath).toMatch(/-peaks\.json$/);
    const song = await request(app).get(res.body.content.filePath).expect(200);
    expect(song.headers['content-type']).toBe('audio/wav');
  });

  it('when the sub-tag is premium, then the knack rate is $0.99', async () => {
    const content = await publishPhoto(ana, { tags: [{ name: 'Art' }], subTag: 'Digital Art' });
    expect((await ContentModel.findById(content.id).lean())?.knackRateMicros).toBe(990_000);
  });

  it('when the sub-tag is not under the main tag, then 400', async () => {
    const photo = await uploadPhoto(ana, await png()).expect(201);
    const res = await save(ana, { title: 'T', description: 'D', tags: [{ name: 'Photos' }], subTag: 'Jazz', photoPath: photo.body.path }).expect(400);
    expect(res.body.message).toBe('Jazz is not a sub-tag of Photos.');
  });

  it('when the upload belongs to someone else or was used already, then 400 and nothing is published', async () => {
    const photo = await uploadPhoto(bea, await png()).expect(201);
    const res = await save(ana, { title: 'T', description: 'D', tags: [{ name: 'Photos' }], photoPath: photo.body.path }).expect(400);
    expect(res.body.message).toBe('That upload was not found. Please upload the file again.');
    await save(bea, { title: 'T', description: 'D', tags: [{ name: 'Photos' }], photoPath: photo.body.path }).expect(201);
    await save(bea, { title: 'T2', description: 'D', tags: [{ name: 'Photos' }], photoPath: photo.body.path }).expect(400);
    expect(await ContentModel.countDocuments({ title: 'T2' })).toBe(0);
  });

  it('when a member of userType 50 publishes Art, then 403; Music is allowed', async () => {
    await UserModel.updateOne({ _id: bea.user.id }, { $set: { userType: 50 } });
    const photo = await uploadPhoto(bea, await png()).expect(201);
    const res = await save(bea, { title: 'T', description: 'D', tags: [{ name: 'Art' }], photoPath: photo.body.path }).expect(403);
    expect(res.body.message).toBe('Your account may upload Music only.');
    await UserModel.updateOne({ _id: bea.user.id }, { $set: { userType: 0 } });
  });

  it('when a Top 50 song is saved without a valid email, then "Email must be valid"', async () => {
    const res = await request(app)
      .post('/api/v2/content/save-top50')
      .set(bearer(ana))
      .send({ artistId: bea.user.id, title: 'T', email: 'nope', description: 'D', tags: [{ name: 'Music' }] })
      .expect(400);
    expect(res.body.message).toBe('Email must be valid');
  });

  it('when a member publishes on another artist’s page, then 404 as for nobody (only the artist and admins publish there)', async () => {
    const res = await request(app)
      .post('/api/v2/content/save-artist')
      .set(bearer(ana))
      .send({ userId: bea.user.id, title: 'T', description: 'D', tags: [{ name: 'Music' }] })
      .expect(404);
    expect(res.body).toMatchObject({ code: 'not_found', message: 'User not found' });
  });
});

describe('serving files', () => {
  it('when a public file is fetched, then it is cacheable for five minutes with its sniffed type; ETag gives 304; ranges give 206', async () => {
    const content = await publishPhoto(ana);
    const full = await request(app).get(content.filePath).buffer(true).expect(200);
    expect(full.headers['content-type']).toBe('image/png');
    expect(full.headers['x-content-type-options']).toBe('nosniff');
    expect(full.headers['cache-control']).toBe('public, max-age=300, must-revalidate, no-transform');
    const etag = full.headers.etag!;
    await request(app).get(content.filePath).set('If-None-Match', etag).expect(304);
    const part = await request(app).get(content.filePath).set('Range', 'bytes=10-19').buffer(true).expect(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${full.body.length}`);
    expect(Buffer.compare(part.body, full.body.subarray(10, 20))).toBe(0);
    await request(app)
      .get(content.filePath)
      .set('Range', `bytes=${full.body.length + 5}-`)
      .expect(416);
  });

  it('when a key is unknown or unsafe, then 404', async () => {
    await request(app).get('/files/images/2026/01/000000000000000000000000.png').expect(404);
    await request(app).get('/files/..%2F..%2Fetc%2Fpasswd').expect(404);
  });

  it('when an upload is not published yet, then its file is served only through its signed URL', async () => {
    const res = await uploadPhoto(ana, await png()).expect(201);
    expect(res.body.upload.url).toMatch(/\?exp=\d+&sig=/);
    await request(app).get(res.body.upload.url).expect(200);
    await request(app).get(`/files/${res.body.path}`).expect(404);
    // One character of the signature changed (to one it is not already).
    const tampered = (res.body.upload.url as string).replace(/sig=(.)/, (_all, first: string) => `sig=${first === 'x' ? 'y' : 'x'}`);
    await request(app).get(tampered).expect(404);
    // Media URLs have a key of their own: one signed with the secret the keys come from does not open the file.
    const exp = new URL(res.body.upload.url, 'http://knack.test').searchParams.get('exp')!;
    const withRawSecret = createHmac('sha256', TEST_JWT_SECRET).update(`${res.body.path}\n${exp}`).digest('base64url');
    await request(app).get(`/files/${res.body.path}?exp=${exp}&sig=${withRawSecret}`).expect(404);
  });
});

describe('managing a piece', () => {
  it('when the owner makes a piece private with plan 2, then others cannot see it or its files; the owner still can', async () => {
    const content = await publishPhoto(ana);
    const setting = { public: false, private: true, followers: false, hidePlayCount: false, hideViewCount: false };
    const refused = await request(app).post('/api/v2/content/update-setting').set(bearer(ana)).send({ contentId: content.id, setting }).expect(403);
    expect(refused.body.message).toBe('Changing who can see a piece needs a subscription plan above Standard.');

    await SubscriptionModel.create({ userId: ana.user.id, planId: 2, subscriptionId: `sub-${content.id}` });
    const res = await request(app).post('/api/v2/content/update-setting').set(bearer(ana)).send({ contentId: content.id, setting }).expect(200);
    expect(res.body.content.setting.private).toBe(true);

    await request(app).get(content.filePath).expect(404);
    await request(app).get(`/api/v2/content/get-by-id/${content.id}`).expect(404);
    await request(app).get(`/api/v2/content/get-by-id/${content.id}`).set(bearer(bea)).expect(404);
    const mine = await request(app).get(`/api/v2/content/get-by-id/${content.id}`).set(bearer(ana)).expect(200);
    expect(mine.body.content.filePath).toMatch(/\?exp=\d+&sig=/);
    await request(app).get(mine.body.content.filePath).expect(200);
    await SubscriptionModel.deleteMany({ userId: ana.user.id });
  });

  it('when a public piece becomes private, then no cache may keep serving its files: they were never cacheable for long, a cache asking again gets 404, and only the owner’s signed URL answers', async () => {
    const content = await publishPhoto(ana);
    const maxAge = (cacheControl: string | undefined) => Number(/max-age=(\d+)/.exec(cacheControl ?? '')?.[1]);
    const asPublic = await request(app).get(content.filePath).expect(200);
    const etag = asPublic.headers.etag!;
    expect(asPublic.headers['cache-control']).not.toContain('immutable');
    expect(maxAge(asPublic.headers['cache-control'])).toBeLessThanOrEqual(300);
    expect(asPublic.headers['cache-control']).toContain('must-revalidate');

    await SubscriptionModel.create({ userId: ana.user.id, planId: 2, subscriptionId: `sub-${content.id}` });
    const setting = { public: false, private: true, followers: false, hidePlayCount: false, hideViewCount: false };
    await request(app).post('/api/v2/content/update-setting').set(bearer(ana)).send({ contentId: content.id, setting }).expect(200);
    await SubscriptionModel.deleteMany({ userId: ana.user.id });

    // A shared cache revalidating its copy hears that the file is gone (not 304), and keeps nothing of the answer.
    const revalidated = await request(app).get(content.filePath).set('If-None-Match', etag).expect(404);
    expect(revalidated.headers['cache-control']).toBe('no-store');
    const mine = await request(app).get(`/api/v2/content/get-by-id/${content.id}`).set(bearer(ana)).expect(200);
    const signed = await request(app).get(mine.body.content.filePath).expect(200);
    expect(signed.headers['cache-control']).toMatch(/^private, /);
  });

  it('when two privacy choices are ticked, then "At least one checkbox must be checked."', async () => {
    const content = await publishPhoto(ana);
    const res = await request(app)
      .post('/api/v2/content/update-setting')
      .set(bearer(ana))
      .send({ contentId: content.id, setting: { public: true, private: true, followers: false, hidePlayCount: false, hideViewCount: false } })
      .expect(400);
    expect(res.body.message).toBe('At least one checkbox must be checked.');
  });

  it('when someone else edits or removes a piece, then 404, as for a piece that does not exist; an admin may', async () => {
    const content = await publishPhoto(ana);
    await request(app).post('/api/v2/content/update-description').set(bearer(bea)).send({ contentId: content.id, description: 'mine now' }).expect(404);
    await request(app).post('/api/v2/content/delete').set(bearer(bea)).send({ contentId: content.id }).expect(404);
    await UserModel.deleteMany({ email: 'admin@knack.example' });
    const admin = await createActiveMember(app, smtp, { email: 'admin@knack.example' });
    const res = await request(app)
      .post('/api/v2/content/update-description')
      .set(bearer(admin))
      .send({ contentId: content.id, description: 'Fixed typo' })
      .expect(200);
    expect(res.body.content.description).toBe('Fixed typo');
  });

  it('when the owner removes a piece, then it and its files are gone', async () => {
    const content = await publishPhoto(ana);
    const keys = (await StoredFileModel.find({}).lean()).length;
    const res = await request(app).post('/api/v2/content/delete').set(bearer(ana)).send({ contentId: content.id }).expect(200);
    expect(res.body.message).toBe('The content is removed successfully.');
    await request(app).get(content.filePath).expect(404);
    await request(app).get(`/api/v2/content/get-by-id/${content.id}`).set(bearer(ana)).expect(404);
    expect((await StoredFileModel.find({}).lean()).length).toBe(keys - 5);
  });

  it('when a piece goes into its owner’s project and out again, then projectId follows (a missing project answers 404)', async () => {
    const content = await publishPhoto(ana);
    await request(app)
      .post('/api/v2/content/update-projectid')
      .set(bearer(ana))
      .send({ contentId: content.id, projectId: '5f0000000000000000000001' })
      .expect(404);
    const saved = await request(app)
      .post('/api/v2/project/save')
      .set(bearer(ana))
      .send({ userId: ana.user.id, projectName: 'Harbor', contentIds: '[]' })
      .expect(201);
    const projectId = saved.body.project.id as string;
    const inProject = await request(app).post('/api/v2/content/update-projectid').set(bearer(ana)).send({ contentId: content.id, projectId }).expect(200);
    expect(inProject.body.content.projectId).toBe(projectId);
    const out = await request(app).post('/api/v2/content/update-projectid').set(bearer(ana)).send({ contentId: content.id, projectId: '' }).expect(200);
    expect(out.body.content.projectId).toBeNull();
  });

  it('when pieces are counted, then others see only public ones', async () => {
    const mine = await request(app).get(`/api/v2/content/count/${ana.user.id}`).set(bearer(ana)).expect(200);
    const theirs = await request(app).get(`/api/v2/content/count/${ana.user.id}`).expect(200);
    const total = await ContentModel.countDocuments({ ownerId: ana.user.id });
    const hidden = await ContentModel.countDocuments({ ownerId: ana.user.id, 'setting.public': false });
    expect(mine.body.contentsCount).toBe(total);
    expect(theirs.body.contentsCount).toBe(total - hidden);
  });
});

describe('profile photo and header', () => {
  it('when a photo is set, then the account shows its public URL', async () => {
    const photo = await uploadPhoto(ana, await png(300, 300), 'me.png', '/api/v2/user/upload-photo').expect(201);
    const res = await request(app).post('/api/v2/user/update-photo').set(bearer(ana)).send({ userId: ana.user.id, photoPath: photo.body.path }).expect(200);
    expect(res.body.user.image).toMatch(/^\/files\/images\/.*-mthumb\.webp$/);
    await request(app).get(res.body.user.image).expect(200);
  });

  it('when no photo is chosen, then "Please select photo"; for someone else, 404 as for nobody', async () => {
    expect((await request(app).post('/api/v2/user/update-photo').set(bearer(ana)).send({ userId: ana.user.id, photoPath: '' }).expect(400)).body.message).toBe(
      'Please select photo',
    );
    const refused = await request(app).post('/api/v2/user/update-photo').set(bearer(ana)).send({ userId: bea.user.id, photoPath: 'x' }).expect(404);
    expect(refused.body).toMatchObject({ code: 'not_found', message: 'User not found' });
  });

  it('when the header crop is 1119:305, then it is applied; another shape is refused', async () => {
    const original = await uploadPhoto(ana, await png(1600, 900), 'header.png', '/api/v2/user/upload-header-image').expect(201);
    const badCrop = await uploadPhoto(ana, await png(800, 600), 'crop.png', '/api/v2/user/upload-header-image').expect(201);
    const bad = await request(app)
      .post('/api/v2/user/update-header-image')
      .set(bearer(ana))
      .send({ userId: ana.user.id, headerImage: original.body.path, headerImageEdited: badCrop.body.path })
      .expect(400);
    expect(bad.body.message).toBe('The header image must be cropped to 1119:305.');
    const crop = await uploadPhoto(ana, await png(1119, 305), 'crop.png', '/api/v2/user/upload-header-image').expect(201);
    const res = await request(app)
      .post('/api/v2/user/update-header-image')
      .set(bearer(ana))
      .send({ userId: ana.user.id, headerImage: original.body.path, headerImageEdited: crop.body.path })
      .expect(200);
    expect(res.body.user.headerImage).toBe(`/files/${crop.body.path}`);
    expect(
      (
        await request(app)
          .post('/api/v2/user/update-header-image')
          .set(bearer(ana))
          .send({ userId: ana.user.id, headerImage: '', headerImageEdited: '' })
          .expect(400)
      ).body.message,
    ).toBe('Please upload image first.');
  });
});
