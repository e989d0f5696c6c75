/**
 * The embedded IPFS pinning: CIDs as `ipfs add` makes them (checked against an independent implementation of
 * UnixFS, Debian's ipfs-cid), and files kept once per CID, without half files or temp files left behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CID } from 'multiformats/cid';
import { localIpfsPinning } from '../../server/integrations/ipfs';
import { independentCid, pseudoRandomBytes, writeBytes } from '../helpers/ipfs';
import { mp3, png, wav } from '../helpers/media';

const work = mkdtempSync(path.join(os.tmpdir(), 'knack-ipfs-local-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let count = 0;
/** A fresh store under the work folder. */
function freshPinning() {
  count += 1;
  return localIpfsPinning(path.join(work, `store-${count}`), 'https://knack.example');
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const KIB = 1024;

/** The CID's CIDv1 base32 form, which names its stored file. */
const cidV1 = (cid: string) => CID.parse(cid).toV1().toString();

describe('the local IPFS pinning', () => {
  it.each([
    ['an image (PNG)', 'image/png', async () => png(640, 480)],
    ['a song (WAV)', 'audio/wav', async () => wav(2)],
    ['a song (MP3)', 'audio/mpeg', async () => mp3(2)],
    ['one byte less than a chunk', 'application/octet-stream', async () => pseudoRandomBytes(256 * KIB - 1, 'small')],
    ['exactly one chunk', 'application/octet-stream', async () => pseudoRandomBytes(256 * KIB, 'one')],
    ['1 MiB of pseudo-random bytes (4 chunks)', 'application/octet-stream', async () => pseudoRandomBytes(1024 * KIB, 'mib')],
  ])('when %s is pinned, then its CID is the one the independent tool computes, and the bytes are kept under it', async (_what, contentType, make) => {
    const pinning = freshPinning();
    const source = writeBytes(path.join(work, `source-${count}`), await make());
    const pinned = await pinning.pin({ path: source, name: 'piece', contentType });

    expect(pinned).toEqual({ cid: independentCid(source), bytes: readFileSync(source).length });
    expect(pinned.cid).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    const found = await pinning.find(pinned.cid);
    expect(found).toMatchObject({ cid: pinned.cid, size: pinned.bytes, contentType });
    expect(readFileSync((found as { file: string }).file).equals(readFileSync(source))).toBe(true);
    expect(pinning.urlOf(pinned.cid)).toBe(`https://knack.example/ipfs/${pinned.cid}`);
  });

  it('when a file has more chunks than one node links (175 of 256 KiB), then the DAG gets another level and the CID still matches the tool', async () => {
    const pinning = freshPinning();
    const source = writeBytes(path.join(work, 'deep'), pseudoRandomBytes(175 * 256 * KIB + 1, 'deep'));
    const pinned = await pinning.pin({ path: source, name: 'deep', contentType: 'application/octet-stream' });
    expect(pinned.cid).toBe(independentCid(source));
    rmSync(source);
    rmSync(pinning.root, { recursive: true, force: true });
  });

  it('when the same bytes are pinned twice at once, then both answer the same CID, one copy is kept, and no temp file is left', async () => {
    const pinning = freshPinning();
    const source = writeBytes(path.join(work, 'twice'), await png(800, 600, { r: 10, g: 200, b: 90 }));
    const [first, second] = await Promise.all([
      pinning.pin({ path: source, name: 'first.png', contentType: 'image/png' }),
      pinning.pin({ path: source, name: 'second.png', contentType: 'image/png' }),
    ]);
    expect(second).toEqual(first);
    const stored = cidV1(first.cid);
    expect(filesUnder(pinning.root)).toEqual([`${stored.slice(-3, -1)}/${stored}`, `${stored.slice(-3, -1)}/${stored}.json`]);
    expect(readdirSync(path.join(pinning.root, 'tmp'))).toEqual([]);

    // And later, once more: the same CID, still one copy, the first pin's record kept.
    expect(await pinning.pin({ path: source, name: 'third.png', contentType: 'image/png' })).toEqual(first);
    expect(filesUnder(pinning.root)).toHaveLength(2);
    expect(readdirSync(path.join(pinning.root, 'tmp'))).toEqual([]);
  });

  it('when a file is looked up by its CIDv1 (bafy…), then the same pin is found; text that is no CID is refused before any file is read', async () => {
    const pinning = freshPinning();
    const source = writeBytes(path.join(work, 'v1'), wav(1));
    const { cid } = await pinning.pin({ path: source, name: 'song.wav', contentType: 'audio/wav' });
    const v1 = cidV1(cid);
    expect(v1).toMatch(/^bafybei[a-z2-7]+$/);
    expect(await pinning.find(v1)).toMatchObject({ cid, contentType: 'audio/wav' });
    expect(await pinning.find('QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o')).toBeUndefined();
    for (const text of ['..', '../../etc/passwd', 'Qm/../x', 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5', '', 'hello']) {
      expect(await pinning.find(text)).toBe('invalid');
    }
  });

  it('when the content type is not one, then nothing is pinned and the message says so', async () => {
    const pinning = freshPinning();
    const source = writeBytes(path.join(work, 'typeless'), Buffer.from('bytes'));
    await expect(pinning.pin({ path: source, name: 'x', contentType: 'text/html\r\nSet-Cookie: a=b' })).rejects.toThrow(
      'Cannot pin x: "text/html\r\nSet-Cookie: a=b" is not a content type such as image/png.',
    );
  });
});
