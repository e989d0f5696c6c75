/**
 * IPFS test files and the independent CID tool: Debian's `ipfs-cid` package (its program is `ipfs_cid`), a Rust
 * implementation of UnixFS that chunks and links as `ipfs add` does by default (256 KiB chunks, balanced DAG of
 * 174 links, no raw leaves) and prints `{"CIDv0": …, "CIDv1": …}`. .ci/run installs it; a test that needs it fails,
 * and says how to install it, where it is missing.
 */
import { spawnSync } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

export const CID_TOOL = 'ipfs_cid';

/** The CIDv0 the independent tool gives the file at `file`. */
export function independentCid(file: string): string {
  const run = spawnSync(CID_TOOL, [file], { encoding: 'utf8' });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(
      `The independent CID tool ${CID_TOOL} is not installed${process.env.CI === 'true' ? ' on this CI machine (.ci/run installs it)' : ''}: install Debian's package with \`apt-get install -y ipfs-cid\`.`,
    );
  }
  if (run.status !== 0) throw new Error(`${CID_TOOL} failed on ${file} (${run.status}): ${run.stderr}`);
  return (JSON.parse(run.stdout) as { CIDv0: string }).CIDv0;
}

/** `size` pseudo-random bytes, the same for the same seed (a file whose chunks all differ): an AES-CTR key stream. */
export function pseudoRandomBytes(size: number, seed = 'knack'): Buffer {
  const key = createHash('sha256').update(seed).digest().subarray(0, 16);
  const stream = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  return Buffer.concat([stream.update(Buffer.alloc(size)), stream.final()]);
}

export function writeBytes(file: string, bytes: Buffer): string {
  writeFileSync(file, bytes);
  return file;
}

export const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
