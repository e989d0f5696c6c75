/**
 * Replacing a piece's file after publishing, on the real database: the owner sends a new song or picture, which goes
 * through the upload pipeline; the piece keeps its id, link, knacks, earnings and comments; its URLs are new and the
 * old ones stop answering the public; the old file is a version the owner can restore for 30 days, then the
 * housekeeping job removes it. Who may, what is refused (nothing left of it), the limit, NFT pieces, and caches.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage, type Storage } from '../../server/integrations/storage';
import { signAccessToken } from '../../server/lib/access-token';
import { createLogger } from '../../server/lib/logger';
import { ContentModel, FILE_VERSION_KEPT_MS } from '../../server/modules/contents';
import { ContentVersionModel, FILE_CHANGE_LIMIT, STALLED_SWITCH_MS } from '../../server/modules/contents/testing';
import { LedgerEntryModel, balanceOf, userAccount } from '../../server/modules/ledger';
import { mediaHousekeeping, STORAGE_DOWN_MESSAGE, StoredFileModel, UploadModel } from '../../server/modules/media';
import { UserModel } from '../../server/modules/users';
import { createTestApp, createTestServices, testConfig } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { coverPng, publishPiece, type Member, type PublishedPiece } from '../helpers/e2e-pieces';
import { png, wav } from '../helpers/media';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const root = mkdtempSync(path.join(os.tmpdir(), 'knack-replace-test-'));
const storage = localStorage(root);
const tempUploads = mkdtempSync(path.join(os.tmpdir(), 'knack-replace-temp-'));
const logger = createLogger('silent');
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let services: ReturnType<typeof createTestServices>;
let ana: Member;
let bea: Member;
let admin: Member;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test'), storage, uploadTempDir: tempUploads });
  services = createTestServices({ storage });
  await seedReferenceData();
  ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea' });
  await UserModel.deleteMany({ email: 'admin@knack.example' });
  admin = await createActiveMember(app, smtp, { email: 'admin@knack.example' });
}, 60_000);
afterAll(async () => {
  await smtp.stop();
  rmSync(root, { recursive: true, force: true });
  rmSync(tempUploads, { recursive: true, force: true });
});

const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
/** A member as a token signed now is (the tests that move the clock weeks on outlive the sign-in's token). */
const signedNow = (m: Member): Member => ({ ...m, token: signAccessToken(testConfig().auth, { userId: m.user.id, tokenVersion: 0 }) });
const storedFiles = () => (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.[a-z0-9]+$/.test(f));
const tempFiles = () => readdirSync(tempUploads).filter((f) => !f.endsWith('.work'));
/** The stored file behind a public URL (`/files/<key>`), or a signed one. */
const fileOf = (url: string) => path.join(root, url.replace(/^\/files\//, '').replace(/\?.*$/, ''));

type Piece = {
  id: string;
  link: string;
  filePath: string;
  coverPath: string;
  thumbPath: string;
  mthumbPath: string;
  hthumbPath: string;
  wthumbPath: string;
  waveformPath?: string;
  duration?: number;
  fileName: string;
  fileType: string;
  fileSize: number;
  reactedCount: number;
  isAudio: boolean;
};

const replace = (m: Member, id: string, kind: 'audio' | 'image', file: Buffer, name: string, through: Parameters<typeof request>[0] = app) =>
  request(through).post(`/api/v2/content/file/${id}/${kind}`).set(bearer(m)).attach('file', file, name);
const versionsOf = (m: Member, id: string) => request(app).get(`/api/v2/content/versions/${id}`).set(bearer(m));
const restore = (m: Member, id: string, versionId: string) => request(app).post(`/api/v2/content/versions/${id}/restore/${versionId}`).set(bearer(m));
const read = async (id: string, m?: Member) => {
  const req = request(app).get(`/api/v2/content/get-by-id/${id}`);
  return (await (m ? req.set(bearer(m)) : req).expect(200)).body.content as Piece;
};

async function song(title: string, member = ana): Promise<PublishedPiece> {
  return publishPiece(app, member, { title, tag: 'Music', subTag: 'Jazz', hue: 30, coverSide: 64, seconds: 1 });
}
async function photo(title: string, member = ana): Promise<PublishedPiece> {
  return publishPiece(app, member, { title, tag: 'Photos', subTag: 'Travel', hue: 200, coverSide: 64 });
}

/** What is kept of every upload, file record and version: a refused change must leave these as they were. */
async function everythingKept() {
  return {
    files: storedFiles().length,
    records: await StoredFileModel.countDocuments({}),
    uploads: await UploadModel.countDocuments({}),
    versions: await ContentVersionModel.countDocuments({}),
  };
}

describe('replacing a song’s cover', () => {
  it('when the owner sends a new cover, then the piece keeps its id, link and song, its picture URLs are new, the old ones stop answering, and the old cover is a version', async () => {
    const piece = await song('Blue Hour');
    const before = await read(piece.id);
    const res = await replace(ana, piece.id, 'image', await coverPng(280, 96), 'new-cover.png').expect(200);
    expect(res.body.message).toBe('The new file is in place.');
    const after = res.body.content as Piece;
    expect({ id: after.id, link: after.link, filePath: after.filePath, waveformPath: after.waveformPath }).toEqual({
      id: before.id,
      link: before.link,
      filePath: before.filePath,
      waveformPath: before.waveformPath,
    });
    for (const field of ['coverPath', 'thumbPath', 'mthumbPath', 'wthumbPath'] as const) expect(after[field]).not.toBe(before[field]);
    // The song's own facts stay: the piece's file is still its song.
    expect({ fileName: after.fileName, fileType: after.fileType, isAudio: after.isAudio }).toEqual({
      fileName: 'song.wav',
      fileType: 'audio/wav',
      isAudio: true,
    });

    const fresh = await request(app).get(after.coverPath).expect(200);
    expect(fresh.headers['content-type']).toBe('image/png');
    expect(fresh.headers['cache-control']).toBe('public, max-age=300, must-revalidate, no-transform');
    await request(app).get(after.wthumbPath).expect(200);
    // The replaced cover's public URLs answer nobody now (a cache asking again hears 404); its files are kept.
    const gone = await request(app).get(before.coverPath).expect(404);
    expect(gone.headers['cache-control']).toBe('no-store');
    await request(app).get(before.thumbPath).expect(404);
    expect(existsSync(fileOf(before.coverPath))).toBe(true);
    // Everyone reads the new picture at once.
    expect((await read(piece.id)).coverPath).toBe(after.coverPath);
    expect((await read(piece.id, bea)).thumbPath).toBe(after.thumbPath);

    const versions = (await versionsOf(ana, piece.id).expect(200)).body.versions;
    expect(versions).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        kind: 'image',
        fileName: 'cover.png',
        size: expect.any(Number),
        mimeType: 'image/png',
        replacedAt: expect.any(String),
        restorableUntil: expect.any(String),
        url: expect.stringMatching(/\?exp=\d+&sig=/),
        previewUrl: expect.stringMatching(/-mthumb\.webp\?exp=\d+&sig=/),
      },
    ]);
    const [version] = versions;
    expect(Date.parse(version.restorableUntil) - Date.parse(version.replacedAt)).toBe(FILE_VERSION_KEPT_MS);
    expect(Math.abs(Date.parse(version.replacedAt) - Date.now())).toBeLessThan(60_000);
    // The owner opens it through its signed link; its picture is the one the piece had.
    const old = await request(app).get(version.url).buffer(true).expect(200);
    expect(old.headers['cache-control']).toMatch(/^private, /);
    expect(version.url.replace(/\?.*$/, '')).toBe(before.coverPath);
  });

  it('when the owner sends a new song, then its duration and waveform are the new song’s, under new keys, and the cover stays', async () => {
    const piece = await song('Long Take');
    const before = await read(piece.id);
    expect(before.duration).toBeCloseTo(1, 1);
    const after = (await replace(ana, piece.id, 'audio', wav(3), 'take-two.wav').expect(200)).body.content as Piece;
    expect(after.duration).toBeCloseTo(3, 1);
    expect(after.filePath).not.toBe(before.filePath);
    expect(after.waveformPath).not.toBe(before.waveformPath);
    expect(after.coverPath).toBe(before.coverPath);
    expect({ fileName: after.fileName, fileType: after.fileType }).toEqual({ fileName: 'take-two.wav', fileType: 'audio/wav' });
    const peaks = (await request(app).get(after.waveformPath!).expect(200)).body as number[];
    expect(peaks.length).toBeGreaterThan(100);
    await request(app).get(before.filePath).expect(404);
    await request(app).get(before.waveformPath!).expect(404);
    const versions = (await versionsOf(ana, piece.id).expect(200)).body.versions;
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ kind: 'audio', fileName: 'song.wav', mimeType: 'audio/wav', duration: expect.closeTo(1, 1) });
    expect(versions[0].previewUrl).toBeUndefined();
  });

  it('when art is given a new picture, then its file and every size are the new picture’s', async () => {
    const piece = await photo('Harbour');
    const before = await read(piece.id);
    const after = (await replace(ana, piece.id, 'image', await png(300, 180, { r: 10, g: 200, b: 90 }), 'harbour-2.png').expect(200)).body.content as Piece;
    expect(after.filePath).toBe(after.coverPath);
    expect(after.filePath).not.toBe(before.filePath);
    expect({ fileName: after.fileName, fileType: after.fileType, isAudio: after.isAudio }).toEqual({
      fileName: 'harbour-2.png',
      fileType: 'image/png',
      isAudio: false,
    });
  });
});

describe('what a piece keeps', () => {
  it('when a knacked and commented piece gets a new file, then its knack total, earnings, comments and link are as they were', async () => {
    const piece = await photo('Kept Totals');
    await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(ana.user.id) } });
    await request(app).post('/api/v2/knack/add').set(bearer(bea)).send({ contentId: piece.id, userId: bea.user.id }).expect(200);
    await request(app)
      .post('/api/v2/comment/add')
      .set(bearer(bea))
      .send({ comment: 'Lovely light', userId: bea.user.id, ownerId: ana.user.id, contentId: piece.id })
      .expect(201);
    const money = async () => (await request(app).get(`/api/v2/knack/get-money/${piece.id}`).set(bearer(ana)).expect(200)).body;
    const comments = async () => (await request(app).get(`/api/v2/comment/get-by-content/${piece.id}`).expect(200)).body;
    const [moneyBefore, commentsBefore, balanceBefore] = [await money(), await comments(), await balanceOf(userAccount(ana.user.id))];

    await replace(ana, piece.id, 'image', await png(200, 200, { r: 250, g: 200, b: 0 }), 'brighter.png').expect(200);

    const after = await read(piece.id);
    expect({ id: after.id, link: after.link, reactedCount: after.reactedCount }).toEqual({ id: piece.id, link: piece.link, reactedCount: 1 });
    expect(await money()).toEqual(moneyBefore);
    expect(await comments()).toEqual(commentsBefore);
    expect(commentsBefore.total).toBe(1);
    expect(await balanceOf(userAccount(ana.user.id))).toBe(balanceBefore);
    expect(await LedgerEntryModel.countDocuments({ _id: `knack:${piece.id}:${bea.user.id}` })).toBe(1);
    // A second knack of the same member is still the one already made.
    const again = await request(app).post('/api/v2/knack/add').set(bearer(bea)).send({ contentId: piece.id, userId: bea.user.id }).expect(200);
    expect(again.body.reactedCount).toBe(1);
    // The piece's page, by its link, shows the new picture.
    const page = await request(app).get(piece.link).expect(200);
    expect(page.text).toContain(`http://knack.test${after.hthumbPath}`);
  });
});

describe('who may', () => {
  it('when another member replaces, lists or restores, then 404 as for a piece that does not exist, before any byte is kept', async () => {
    const piece = await photo('Not Hers');
    await replace(ana, piece.id, 'image', await png(), 'b.png').expect(200);
    const [version] = (await versionsOf(ana, piece.id).expect(200)).body.versions;
    const kept = await everythingKept();
    const refused = await replace(bea, piece.id, 'image', await png(), 'mine.png').expect(404);
    expect(refused.body).toMatchObject({ code: 'not_found', message: 'Content not found' });
    expect((await versionsOf(bea, piece.id).expect(404)).body.message).toBe('Content not found');
    expect((await restore(bea, piece.id, version.id).expect(404)).body.message).toBe('Content not found');
    expect(await everythingKept()).toEqual(kept);
    expect(tempFiles()).toEqual([]);
  });

  it('when an admin replaces another member’s picture, then it is done, and the new file is the owner’s', async () => {
    const piece = await photo('Fixed By Admin');
    const after = (await replace(admin, piece.id, 'image', await png(), 'fixed.png').expect(200)).body.content as Piece;
    const upload = await UploadModel.findOne({ key: after.coverPath.replace(/^\/files\//, '') }).lean();
    expect(String(upload!.ownerId)).toBe(ana.user.id);
    expect((await versionsOf(admin, piece.id).expect(200)).body.versions).toHaveLength(1);
  });

  it('when not signed in, then 401', async () => {
    const piece = await photo('Signed Out');
    await request(app)
      .post(`/api/v2/content/file/${piece.id}/image`)
      .attach('file', await png(), 'a.png')
      .expect(401);
    await request(app).get(`/api/v2/content/versions/${piece.id}`).expect(401);
  });

  it('when the piece does not exist or its id is not one, then 404', async () => {
    expect((await replace(ana, new Types.ObjectId().toHexString(), 'image', await png(), 'a.png').expect(404)).body.message).toBe('Content not found');
    expect((await replace(ana, 'not-an-id', 'image', await png(), 'a.png').expect(404)).body.message).toBe('Content not found');
  });

  it('when the piece was minted as an NFT, then its files cannot be replaced, nor restored, and nothing is kept', async () => {
    const piece = await song('Minted');
    await ContentModel.updateOne(
      { _id: piece.id },
      {
        $set: {
          nft: {
            tokenCode: 'MINTED',
            tokenIssuer: 'GISSUER',
            tokenIssuerShort: 'GISS…',
            asset: 'MINTED:GISSUER',
            tokenAmount: 1,
            transactionHash: 'f'.repeat(64),
            ipfsHash: 'bafy',
            ipfsHashShort: 'bafy',
            ipfsUrl: 'http://knack.test/ipfs/bafy',
            network: 'testnet',
          },
        },
      },
    );
    const kept = await everythingKept();
    for (const [kind, file, name] of [
      ['audio', wav(1), 'a.wav'],
      ['image', await png(), 'a.png'],
    ] as const) {
      const res = await replace(ana, piece.id, kind, file, name).expect(409);
      expect(res.body).toMatchObject({
        code: 'conflict',
        message: 'This piece is an NFT: its token names the file pinned on IPFS, so its files cannot be replaced.',
      });
    }
    const restoring = await restore(ana, piece.id, new Types.ObjectId().toHexString()).expect(409);
    expect(restoring.body.message).toBe('This piece is an NFT: its token names the file pinned on IPFS, so its files cannot be replaced.');
    expect(await everythingKept()).toEqual(kept);
  });
});

describe('bad files change nothing', () => {
  it.each([
    ['an HTML page named .png', 'image', Buffer.from('<!doctype html><p>hi</p>'), 'evil.png', 415, 'Only PNG and JPEG images are accepted.'],
    ['a text file as a song', 'audio', Buffer.from('not music at all'), 'song.mp3', 415, 'Only audio files (MP3, WAV, OGG, FLAC, M4A or AAC) are accepted.'],
    ['an image over 20 MB', 'image', Buffer.alloc(21 * 1024 * 1024, 1), 'huge.png', 413, 'Image size should be less than 20 MB.'],
  ] as const)(
    'when %s is sent, then %d with the upload’s message, and the piece and its files are as they were',
    async (_what, kind, body, name, status, message) => {
      const piece = await song(`Refused ${name}`);
      const before = await read(piece.id);
      const kept = await everythingKept();
      const res = await replace(ana, piece.id, kind, body, name).expect(status);
      expect(res.body.message).toBe(message);
      expect(await read(piece.id)).toEqual(before);
      expect(await everythingKept()).toEqual(kept);
      expect(tempFiles()).toEqual([]);
    },
  );

  it('when no file, or two, are sent, then 400 "Send exactly one file"', async () => {
    const piece = await photo('No File');
    const none = await request(app).post(`/api/v2/content/file/${piece.id}/image`).set(bearer(ana)).field('title', 'x').expect(400);
    expect(none.body.message).toBe('Send exactly one file, in the field "file".');
    const image = await png();
    await request(app)
      .post(`/api/v2/content/file/${piece.id}/image`)
      .set(bearer(ana))
      .attach('file', image, 'a.png')
      .attach('file', image, 'b.png')
      .expect(400);
    expect((await versionsOf(ana, piece.id).expect(200)).body.versions).toEqual([]);
  });

  it('when audio is sent for art, then 400: art has no audio', async () => {
    const piece = await photo('Silent Art');
    const res = await replace(ana, piece.id, 'audio', wav(1), 'a.wav').expect(400);
    expect(res.body.message).toBe('Art and photos have no audio: replace their picture instead.');
  });

  it('when storing the new file fails, then the piece is unchanged and nothing of the new file is left', async () => {
    const piece = await photo('Disk Full');
    const before = await read(piece.id);
    const failing: Storage = {
      ...storage,
      putBuffer: (key, body, type) => (key.endsWith('-hthumb.webp') ? Promise.reject(new Error('disk full')) : storage.putBuffer(key, body, type)),
    };
    const broken = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test'), storage: failing, uploadTempDir: tempUploads });
    const kept = await everythingKept();
    const res = await replace(ana, piece.id, 'image', await png(), 'a.png', broken).expect(503);
    expect(res.body).toMatchObject({ message: STORAGE_DOWN_MESSAGE, code: 'unavailable' });
    expect(await read(piece.id)).toEqual(before);
    expect(await everythingKept()).toEqual(kept);
  });
});

describe('versions and restoring', () => {
  it('when the owner restores the earlier cover, then it is the piece’s again under its old URLs, and the cover it replaced becomes a version', async () => {
    const piece = await song('Back Again');
    const first = await read(piece.id);
    const second = (await replace(ana, piece.id, 'image', await coverPng(100, 64), 'second.png').expect(200)).body.content as Piece;
    const [version] = (await versionsOf(ana, piece.id).expect(200)).body.versions;

    const res = await restore(ana, piece.id, version.id).expect(200);
    expect(res.body.message).toBe('The earlier file is back in place.');
    const restored = res.body.content as Piece;
    expect({ id: restored.id, link: restored.link, coverPath: restored.coverPath, filePath: restored.filePath }).toEqual({
      id: first.id,
      link: first.link,
      coverPath: first.coverPath,
      filePath: first.filePath,
    });
    await request(app).get(first.coverPath).expect(200);
    await request(app).get(second.coverPath).expect(404);
    const versions = (await versionsOf(ana, piece.id).expect(200)).body.versions;
    expect(versions.map((v: { id: string; kind: string; fileName: string }) => [v.kind, v.fileName])).toEqual([['image', 'second.png']]);
    expect(versions[0].id).not.toBe(version.id);
    // Restored once, it is no longer a version.
    expect((await restore(ana, piece.id, version.id).expect(404)).body.message).toBe('Version not found');
  });

  it('when a version is of another piece, unknown, or past its 30 days, then 404 "Version not found" and nothing changes', async () => {
    const [one, two] = [await photo('One Of Two'), await photo('Two Of Two')];
    await replace(ana, one.id, 'image', await png(), 'x.png').expect(200);
    const [version] = (await versionsOf(ana, one.id).expect(200)).body.versions;
    expect((await restore(ana, two.id, version.id).expect(404)).body.message).toBe('Version not found');
    expect((await restore(ana, one.id, new Types.ObjectId().toHexString()).expect(404)).body.message).toBe('Version not found');
    const clock = freezeDate(Date.now() + FILE_VERSION_KEPT_MS + 60_000);
    try {
      expect((await restore(signedNow(ana), one.id, version.id).expect(404)).body.message).toBe('Version not found');
      expect((await versionsOf(signedNow(ana), one.id).expect(200)).body.versions).toEqual([]);
    } finally {
      clock.restore();
    }
  });

  it('when two new covers are sent at once, then both are kept in turn: the piece holds one, the other and the first cover are versions, and no upload is left unaccounted for', async () => {
    const piece = await photo('Twice At Once');
    const first = await read(piece.id);
    const answers = await Promise.all([
      replace(ana, piece.id, 'image', await png(120, 120, { r: 255, g: 0, b: 0 }), 'red.png'),
      replace(ana, piece.id, 'image', await png(120, 120, { r: 0, g: 0, b: 255 }), 'blue.png'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const now = await read(piece.id);
    const versions = (await versionsOf(ana, piece.id).expect(200)).body.versions as { fileName: string }[];
    expect([now.fileName, ...versions.map((v) => v.fileName)].sort()).toEqual(['blue.png', 'cover.png', 'red.png']);
    expect(versions).toHaveLength(2);
    expect(await ContentVersionModel.countDocuments({ contentId: piece.id, state: 'switching' })).toBe(0);
    // Every upload claimed by the piece is its file or a version's.
    const claimed = await UploadModel.find({ usedBy: `content:${piece.id}` }).lean();
    expect(claimed).toHaveLength(3);
    expect(first.filePath).not.toBe(now.filePath);
  });

  it('when the owner deletes the piece, then its versions’ files go with it', async () => {
    const piece = await photo('Gone With Versions');
    const first = await read(piece.id);
    await replace(ana, piece.id, 'image', await png(), 'second.png').expect(200);
    await request(app).post('/api/v2/content/delete').set(bearer(ana)).send({ contentId: piece.id }).expect(200);
    expect(existsSync(fileOf(first.coverPath))).toBe(false);
    expect(await ContentVersionModel.countDocuments({ contentId: piece.id })).toBe(0);
    expect(await UploadModel.countDocuments({ usedBy: `content:${piece.id}` })).toBe(0);
  });
});

describe('the limit', () => {
  it('when a member has changed files 30 times in the hour, then the next is 429 with Retry-After, counted before the file is read', async () => {
    const carl = await createActiveMember(app, smtp, { firstName: 'Carl' });
    const piece = await photo('Busy Hands', carl);
    // Restores of versions that do not exist are counted too (each answers 404).
    for (let i = 0; i < FILE_CHANGE_LIMIT.max; i += 1) await restore(carl, piece.id, new Types.ObjectId().toHexString()).expect(404);
    const kept = await everythingKept();
    const res = await replace(carl, piece.id, 'image', await png(), 'late.png').expect(429);
    expect(res.body.message).toBe('Too many file changes. Please wait and try again.');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await everythingKept()).toEqual(kept);
  });
});

describe('caches', () => {
  it('when a cover is replaced, then the public feed, the embed’s read and the link preview show the new picture at once', async () => {
    const piece = await photo('Cached Cover');
    const feed = async () =>
      ((await request(app).get('/api/v2/content/get-by-kind/new?limit=50').expect(200)).body.contents as Piece[]).find((c) => c.id === piece.id)!;
    const before = await feed();
    // Asked twice: the second answer is the stored one.
    expect((await feed()).thumbPath).toBe(before.thumbPath);
    const after = (await replace(ana, piece.id, 'image', await png(220, 220, { r: 90, g: 0, b: 160 }), 'purple.png').expect(200)).body.content as Piece;
    expect((await feed()).thumbPath).toBe(after.thumbPath);
    expect((await read(piece.id)).filePath).toBe(after.filePath);
    const page = await request(app).get(piece.link).expect(200);
    expect(page.text).toContain(after.hthumbPath);
    expect(page.text).not.toContain(before.hthumbPath);
  });
});

describe('housekeeping', () => {
  const housekeeping = async () => ({
    ...(await mediaHousekeeping({ media: services.media, storage, logger })),
    versions: await services.contents.sweepFileVersions(),
  });

  it('when a version is younger than 30 days, then the sweep of unused uploads keeps it, even its upload older than a day; past 30 days it is removed with its files', async () => {
    const piece = await photo('Thirty Days');
    const first = await read(piece.id);
    await replace(ana, piece.id, 'image', await png(), 'second.png').expect(200);
    const [version] = await ContentVersionModel.find({ contentId: piece.id }).lean();
    expect(await StoredFileModel.countDocuments({ uploadId: version!.uploadId })).toBe(5);

    const clock = freezeDate(Date.now() + FILE_VERSION_KEPT_MS - 24 * 60 * 60_000);
    try {
      expect((await housekeeping()).versions).toEqual({ settled: 0, removed: 0 });
      expect(existsSync(fileOf(first.coverPath))).toBe(true);
      expect(await UploadModel.exists({ _id: version!.uploadId })).toBeTruthy();
      expect((await versionsOf(signedNow(ana), piece.id).expect(200)).body.versions).toHaveLength(1);

      clock.advance(2 * 24 * 60 * 60_000);
      // Every version kept so far in this file is past its 30 days now, this one among them.
      const due = await ContentVersionModel.countDocuments({ state: 'kept' });
      expect((await housekeeping()).versions).toEqual({ settled: 0, removed: due });
      expect(await ContentVersionModel.countDocuments({})).toBe(0);
      expect(existsSync(fileOf(first.coverPath))).toBe(false);
      expect(await UploadModel.exists({ _id: version!.uploadId })).toBeNull();
      expect(await StoredFileModel.countDocuments({ uploadId: version!.uploadId })).toBe(0);
      expect(await ContentVersionModel.countDocuments({ contentId: piece.id })).toBe(0);
      // The piece's own file is untouched.
      await request(app)
        .get((await read(piece.id)).filePath)
        .expect(200);
    } finally {
      clock.restore();
    }
  });

  it('when a replacement was cut short before the piece changed, then the sweep undoes it: the piece is as it was and the new upload is left for the unused sweep', async () => {
    const piece = await photo('Cut Short');
    const before = await read(piece.id);
    const doc = (await ContentModel.findById(piece.id).lean())!;
    // What a process that stopped after recording the switch and claiming the new file leaves behind.
    const upload = await request(app)
      .post('/api/v2/content/upload-photo')
      .set(bearer(ana))
      .attach('file', await png(), 'orphan.png')
      .expect(201);
    const orphan = (await UploadModel.findOne({ key: upload.body.path }).lean())!;
    await services.media.attach([orphan], `content:${piece.id}`, 'public');
    await ContentVersionModel.create({
      contentId: doc._id,
      kind: 'image',
      uploadId: doc.photoUploadId,
      replacedBy: orphan._id,
      size: 1,
      mimeType: 'image/png',
      replacedAt: new Date(Date.now() - STALLED_SWITCH_MS - 60_000),
      keepUntil: new Date(Date.now() + FILE_VERSION_KEPT_MS),
      state: 'switching',
    });
    expect((await housekeeping()).versions).toEqual({ settled: 1, removed: 0 });
    expect(await read(piece.id)).toEqual(before);
    expect(await ContentVersionModel.countDocuments({ contentId: piece.id })).toBe(0);
    expect((await UploadModel.findById(orphan._id).lean())!.usedBy).toBeNull();
    // A day later the unused sweep removes it.
    const clock = freezeDate(Date.now() + 25 * 60 * 60_000);
    try {
      await housekeeping();
      expect(await UploadModel.exists({ _id: orphan._id })).toBeNull();
    } finally {
      clock.restore();
    }
  });

  it('when a replacement was cut short and the owner replaces again before the job runs, then the first is settled first: every file is held or kept', async () => {
    const piece = await photo('Again Soon');
    await replace(ana, piece.id, 'image', await png(), 'second.png').expect(200);
    await ContentVersionModel.updateMany({ contentId: piece.id }, { $set: { state: 'switching' } });
    await replace(ana, piece.id, 'image', await png(90, 90), 'third.png').expect(200);
    expect(await ContentVersionModel.countDocuments({ contentId: piece.id, state: 'switching' })).toBe(0);
    const versions = (await versionsOf(ana, piece.id).expect(200)).body.versions as { fileName: string }[];
    expect(versions.map((v) => v.fileName)).toEqual(['second.png', 'cover.png']);
    expect((await read(piece.id)).fileName).toBe('third.png');
    expect(await UploadModel.countDocuments({ usedBy: `content:${piece.id}` })).toBe(3);
  });

  it('when a replacement was cut short after the piece changed, then the sweep finishes it: the old file is a version readable by its owner only', async () => {
    const piece = await photo('Almost Done');
    const first = await read(piece.id);
    await replace(ana, piece.id, 'image', await png(), 'second.png').expect(200);
    // As if the process had stopped before the last step (the files' access and the record marked kept).
    const [version] = await ContentVersionModel.find({ contentId: piece.id }).lean();
    await ContentVersionModel.updateOne({ _id: version!._id }, { $set: { state: 'switching', replacedAt: new Date(Date.now() - STALLED_SWITCH_MS - 60_000) } });
    await StoredFileModel.updateMany({ uploadId: version!.uploadId }, { $set: { visibility: 'public' } });
    expect((await versionsOf(ana, piece.id).expect(200)).body.versions).toEqual([]);

    expect((await housekeeping()).versions).toEqual({ settled: 1, removed: 0 });
    expect((await ContentVersionModel.findById(version!._id).lean())!.state).toBe('kept');
    await request(app).get(first.coverPath).expect(404);
    expect((await versionsOf(ana, piece.id).expect(200)).body.versions).toHaveLength(1);
  });
});
