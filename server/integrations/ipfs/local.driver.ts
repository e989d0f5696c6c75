/**
 * The embedded default: pinned files kept under DATA_DIR/ipfs by their CID, served by this app at /ipfs/{cid}
 * (local.routes.ts). They are not on the IPFS network (no node announces them), but their CIDs are the real ones:
 * the same file pinned later to Pinata or a Kubo node keeps the CID an NFT already names.
 *
 * Layout: `<root>/<two letters>/<cid>` holds the bytes and `<cid>.json` beside it what was said when it was pinned
 * (content type, name), the CID in its CIDv1 base32 form, lowercase, so that file names differ on a file system
 * that ignores case. A pin copies the file into `<root>/tmp`, computes the CID of that copy, then links it into
 * place: a reader never sees half a file, and the same bytes pinned twice, at once or not, are stored once (the
 * first link wins; the later ones find it there).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CID } from 'multiformats/cid';
import { canonicalCid, cidOfFile } from './cid';
import type { IpfsPinning } from './ipfs.types';

export interface LocalPin {
  /** The CID as asked for, in its stored form (CIDv0). */
  cid: string;
  size: number;
  contentType: string;
  /** The file holding the bytes. */
  file: string;
}

interface PinRecord {
  cid: string;
  name: string;
  contentType: string;
  bytes: number;
  pinnedAt: string;
}

export interface LocalIpfsPinning extends IpfsPinning {
  readonly kind: 'local';
  readonly root: string;
  /** A pinned file by its CID (any form of it); undefined when none is pinned, 'invalid' for text that is no CID. */
  find(cid: string): Promise<LocalPin | undefined | 'invalid'>;
}

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/** Links `from` to `to` unless `to` is there already (same bytes: the CID names them). */
async function linkOnce(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

export function localIpfsPinning(root: string, publicUrl: string): LocalIpfsPinning {
  const tempDir = path.join(root, 'tmp');
  /** Where a CID's bytes live; `cid` is canonical (cid.ts), so the name holds only letters and digits. */
  function fileOf(cid: string): string {
    const name = CID.parse(cid).toV1().toString();
    return path.join(root, name.slice(-3, -1), name);
  }

  return {
    kind: 'local',
    root,

    async pin({ path: source, name, contentType }) {
      if (!MIME_TYPE.test(contentType)) throw new Error(`Cannot pin ${name}: "${contentType}" is not a content type such as image/png.`);
      await mkdir(tempDir, { recursive: true });
      const temp = path.join(tempDir, randomBytes(12).toString('hex'));
      const tempRecord = `${temp}.json`;
      try {
        await copyFile(source, temp);
        const { cid, bytes } = await cidOfFile(temp);
        const target = fileOf(cid);
        await mkdir(path.dirname(target), { recursive: true });
        const record: PinRecord = { cid, name, contentType, bytes, pinnedAt: new Date().toISOString() };
        await writeFile(tempRecord, JSON.stringify(record));
        // The record first: whoever finds the bytes finds their content type beside them.
        await linkOnce(tempRecord, `${target}.json`);
        await linkOnce(temp, target);
        return { cid, bytes };
      } finally {
        await Promise.all([rm(temp, { force: true }), rm(tempRecord, { force: true })]);
      }
    },

    urlOf: (cid) => `${publicUrl}/ipfs/${cid}`,

    async find(text) {
      const cid = canonicalCid(text);
      if (!cid) return 'invalid';
      const file = fileOf(cid);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      const record = await readFile(`${file}.json`, 'utf8')
        .then((raw) => JSON.parse(raw) as Partial<PinRecord>)
        .catch(() => undefined);
      return { cid, size: info.size, contentType: record?.contentType ?? 'application/octet-stream', file };
    },
  };
}

/** A stream of a pinned file's bytes, `start` to `end` inclusive when given. */
export function readPinned(pin: LocalPin, range?: { start: number; end: number }) {
  return createReadStream(pin.file, range ?? {});
}
