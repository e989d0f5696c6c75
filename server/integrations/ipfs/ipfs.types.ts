/**
 * IPFS pinning: a file's bytes kept under their content identifier (CID), so that anyone can fetch them by it
 * and check that they are the bytes the CID names (an NFT's file refers to it).
 */
import type { Config } from '../../config';

export interface PinnedFile {
  /** The file's CID as `ipfs add` makes it by default: CIDv0 (`Qm…`), the same from every driver. */
  cid: string;
  /** The file's size in bytes (not the size of its DAG, which adds a little per chunk). */
  bytes: number;
}

export interface IpfsPinning {
  /** 'local' (embedded default), 'pinning-service' (a pinning service's upload API: Pinata), or 'kubo' (a Kubo node's RPC). */
  readonly kind: 'local' | 'pinning-service' | 'kubo';
  /** Pins the file's bytes (read from `path` as a stream, never whole in memory) and answers its CID. `name` is kept as the pin's name. */
  pin(file: { path: string; name: string; contentType: string }): Promise<PinnedFile>;
  /** The public URL of a pinned CID (local: `${publicUrl}/ipfs/${cid}`; otherwise the configured gateway, default https://ipfs.io/ipfs/). */
  urlOf(cid: string): string;
}

export type IpfsPinningConfig = Pick<Config, 'dataDir' | 'publicUrl' | 'ipfs'>;

/** The pinning service or node refused the file, could not be reached, or answered another CID than ours. */
export class IpfsPinningError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'IpfsPinningError';
  }
}
