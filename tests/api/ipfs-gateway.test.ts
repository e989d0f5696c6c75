/**
 * GET /ipfs/{cid} through the real app: the files the embedded IPFS pinning keeps, served as a gateway serves
 * them (immutable caching under the CID, byte ranges), and nothing else.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { CID } from 'multiformats/cid';
import { IMMUTABLE_CACHE_CONTROL, localIpfsPinning, PINNED_FILE_POLICY } from '../../server/integrations/ipfs';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { independentCid, pseudoRandomBytes, writeBytes } from '../helpers/ipfs';
import { mp3, png } from '../helpers/media';

useTestDatabase();

const work = mkdtempSync(path.join(os.tmpdir(), 'knack-ipfs-gateway-'));
// A file beside the store, which no request may reach.
const SECRET = 'not-for-the-web-0123456789';
writeFileSync(path.join(work, 'secret.txt'), SECRET);
const storeRoot = path.join(work, 'ipfs');
mkdirSync(storeRoot);
const pinning = localIpfsPinning(storeRoot, 'http://knack.test');
const app = createTestApp({ ipfs: pinning });
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function pinBytes(bytes: Buffer, name: string, contentType: string) {
  const source = writeBytes(path.join(work, name), bytes);
  const pinned = await pinning.pin({ path: source, name, contentType });
  expect(pinned.cid).toBe(independentCid(source));
  return { ...pinned, bytes };
}

describe('GET /ipfs/{cid}', () => {
  it('when an image is pinned, then its URL answers its bytes with its content type, cached for a year as immutable, with the CID as ETag', async () => {
    const image = await pinBytes(await png(400, 300), 'cover.png', 'image/png');
    expect(pinning.urlOf(image.cid)).toBe(`http://knack.test/ipfs/${image.cid}`);
    const res = await request(app).get(`/ipfs/${image.cid}`).buffer(true).expect(200);
    expect(Buffer.compare(res.body as Buffer, image.bytes)).toBe(0);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(image.bytes.length));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable, no-transform');
    expect(IMMUTABLE_CACHE_CONTROL).toBe('public, max-age=31536000, immutable, no-transform');
    expect(res.headers.etag).toBe(`"${image.cid}"`);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe(PINNED_FILE_POLICY);

    const again = await request(app).get(`/ipfs/${image.cid}`).set('If-None-Match', `"${image.cid}"`).expect(304);
    expect(again.headers.etag).toBe(`"${image.cid}"`);
    expect(again.headers['content-length']).toBeUndefined();
    // The same file by its CIDv1: the same bytes.
    const v1 = CID.parse(image.cid).toV1().toString();
    const byV1 = await request(app).get(`/ipfs/${v1}`).buffer(true).expect(200);
    expect(Buffer.compare(byV1.body as Buffer, image.bytes)).toBe(0);
  });

  it('when a song is fetched in ranges, then each range answers 206 with exactly those bytes, and a range past the end 416', async () => {
    const song = await pinBytes(mp3(3), 'song.mp3', 'audio/mpeg');
    const part = await request(app).get(`/ipfs/${song.cid}`).set('Range', 'bytes=100-1099').buffer(true).expect(206);
    expect(part.headers['content-type']).toBe('audio/mpeg');
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${song.bytes.length}`);
    expect(Buffer.compare(part.body as Buffer, song.bytes.subarray(100, 1100))).toBe(0);
    const tail = await request(app).get(`/ipfs/${song.cid}`).set('Range', 'bytes=-500').buffer(true).expect(206);
    expect(Buffer.compare(tail.body as Buffer, song.bytes.subarray(-500))).toBe(0);
    const past = await request(app)
      .get(`/ipfs/${song.cid}`)
      .set('Range', `bytes=${song.bytes.length + 10}-`)
      .expect(416);
    expect(past.headers['content-range']).toBe(`bytes */${song.bytes.length}`);
    const head = await request(app).head(`/ipfs/${song.cid}`).expect(200);
    expect(head.headers['content-length']).toBe(String(song.bytes.length));
  });

  it('when a file of several chunks is fetched, then the bytes are the whole file', async () => {
    const big = await pinBytes(pseudoRandomBytes(1024 * 1024 + 7, 'gateway'), 'big.bin', 'application/octet-stream');
    const res = await request(app).get(`/ipfs/${big.cid}`).buffer(true).expect(200);
    expect(Buffer.compare(res.body as Buffer, big.bytes)).toBe(0);
  });

  it('when a pinned file is of a type a browser would run (HTML, script), then it goes out as application/octet-stream', async () => {
    const page = await pinBytes(Buffer.from('<script>alert(1)</script>'), 'page.html', 'text/html');
    const res = await request(app).get(`/ipfs/${page.cid}`).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-security-policy']).toBe(PINNED_FILE_POLICY);
  });

  it('when a CID is well formed but nothing is pinned under it, then 404 that no cache keeps', async () => {
    const res = await request(app).get('/ipfs/QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o').expect(404);
    expect(res.body).toEqual({ message: 'No file is pinned here under this CID', code: 'not_found' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('when the text is no CID, then 400 and the message says so', async () => {
    const res = await request(app).get('/ipfs/QmNotACid').expect(400);
    expect(res.body).toEqual({ message: 'Not a CID: "QmNotACid"', code: 'bad_request' });
    await request(app).get('/ipfs/bafyzzzz').expect(400);
  });

  it.each(['/ipfs/..%2fsecret.txt', '/ipfs/..%2f..%2fetc%2fpasswd', '/ipfs/%2e%2e/secret.txt', '/ipfs/../secret.txt', '/ipfs/..%5csecret.txt'])(
    'when the path %s tries to leave the folder, then it answers 400 or 404 and no byte outside it',
    async (url) => {
      const res = await request(app).get(url).buffer(true);
      expect([400, 404]).toContain(res.status);
      expect(res.text).not.toContain(SECRET);
      expect(res.text).not.toContain('root:');
    },
  );

  it('when a path goes on after the CID, then 404 (a pinned file has no files inside it)', async () => {
    const image = await pinBytes(await png(10, 10), 'tiny.png', 'image/png');
    await request(app).get(`/ipfs/${image.cid}/secret.txt`).expect(404);
  });
});
