/**
 * CIDs as IPFS makes them, with the UnixFS importer of IPFS's own JavaScript implementation
 * (ipfs-unixfs-importer), set as `ipfs add` is by default, so that our CID of a file is the one Kubo and Pinata
 * answer for it: the "unixfs-v0-2015" profile (IPIP-499), that is CIDv0 (`Qm…`, sha2-256, dag-pb), chunks of
 * 256 KiB, a balanced DAG of at most 174 links per node, chunks wrapped as UnixFS nodes (no raw leaves), and a file
 * of one chunk made a single node.
 */
import { createReadStream } from 'node:fs';
import type { ImporterOptions, WritableStorage } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';

const IPFS_ADD_DEFAULTS: ImporterOptions = {
  profile: 'unixfs-v0-2015',
  cidVersion: 0,
  rawLeaves: false,
  reduceSingleLeafToSelf: true,
  wrapWithDirectory: false,
};

/** Only the CID is wanted here: the blocks the importer makes are dropped as they come. */
const discardBlocks: WritableStorage = { put: (cid) => cid };

/** The dag-pb codec and the sha2-256 multihash: the only CIDs that also have a CIDv0 form. */
const DAG_PB = 0x70;
const SHA2_256 = 0x12;

/**
 * The importer is an ES module whose dependencies are ES modules only: loaded with import(), as Node loads ES
 * modules, it works from the compiled server and from tsx alike (tsx turns what is required into CommonJS, and
 * those dependencies export nothing to require()).
 */
let importerModule: Promise<typeof import('ipfs-unixfs-importer')> | undefined;
const loadImporter = () => (importerModule ??= import('ipfs-unixfs-importer'));

/** The CID of the file at `path` and its size, read as a stream. */
export async function cidOfFile(path: string): Promise<{ cid: string; bytes: number }> {
  let bytes = 0;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of createReadStream(path)) {
      bytes += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  }
  const { importFile } = await loadImporter();
  // The importer mutates the options it is given (it fills in the profile's settings): each call gets a copy.
  const { cid } = await importFile({ content: counted() }, discardBlocks, { ...IPFS_ADD_DEFAULTS });
  return { cid: cid.toString(), bytes };
}

/**
 * The text of a CID, as one form to store and look it up by: CIDv0 for a file `ipfs add` could have made (its
 * CIDv1 `bafy…` form names the same bytes), else the CID as parsed. Undefined for anything that is not a CID
 * (only letters and digits pass, so no path can come through).
 */
export function canonicalCid(text: string): string | undefined {
  if (!/^[A-Za-z0-9]{1,200}$/.test(text)) return undefined;
  let cid: CID;
  try {
    cid = CID.parse(text);
  } catch {
    return undefined;
  }
  if (cid.code === DAG_PB && cid.multihash.code === SHA2_256) return cid.toV0().toString();
  return cid.toString();
}

/** Whether two CIDs name the same DAG, whatever their version or base. */
export function sameCid(a: string, b: string): boolean {
  const first = canonicalCid(a);
  return first !== undefined && first === canonicalCid(b);
}
