/**
 * The Merkle tree of Certificate Transparency (RFC 6962 §2.1, kept as RFC 9162 §2.1), over SHA-256: the one
 * everyone can recompute with a few lines of code in any language, and whose published test vectors
 * (transparency-dev/merkle) tests/unit/merkle.test.ts checks.
 *
 * - a leaf's hash is SHA-256(0x00 ‖ data), a node's SHA-256(0x01 ‖ left ‖ right): the two prefixes keep a leaf
 *   from ever passing for a node (a second-preimage attack);
 * - a tree of n > 1 leaves splits at k, the largest power of two below n: the left part holds the first k leaves
 *   and is always complete, the right part the rest;
 * - the root of no leaves is SHA-256 of nothing.
 *
 * An audit path lists, from the leaf up, the root of each part beside the leaf's way to the root. Knowing the
 * leaf's data, its index and the tree's size, anyone can recompute the root from it (rootFromInclusionPath).
 */
import { createHash } from 'node:crypto';

const sha256 = (...parts: Buffer[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

const LEAF = Buffer.from([0x00]);
const NODE = Buffer.from([0x01]);

/** The hash of a leaf's data: SHA-256(0x00 ‖ data). */
export const leafHash = (data: Buffer) => sha256(LEAF, data);

/** The hash of a node: SHA-256(0x01 ‖ left ‖ right). */
export const nodeHash = (left: Buffer, right: Buffer) => sha256(NODE, left, right);

/** The largest power of two below n (n ≥ 2): where a tree of n leaves splits. */
function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The root of the leaves [from, to) given by their hashes (to > from). */
function rootOf(hashes: Buffer[], from: number, to: number): Buffer {
  if (to - from === 1) return hashes[from]!;
  const k = splitOf(to - from);
  return nodeHash(rootOf(hashes, from, from + k), rootOf(hashes, from + k, to));
}

/** The root of the tree of these leaves' data, in this order. */
export function merkleRoot(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  return rootOf(leaves.map(leafHash), 0, leaves.length);
}

/** The audit path of the leaf at `index`: the hashes beside its way to the root, from the leaf up. */
export function inclusionPath(leaves: Buffer[], index: number): Buffer[] {
  if (!Number.isSafeInteger(index) || index < 0 || index >= leaves.length) {
    throw new RangeError(`No leaf ${index} in a tree of ${leaves.length}`);
  }
  const hashes = leaves.map(leafHash);
  const path: Buffer[] = [];
  let from = 0;
  let to = leaves.length;
  // From the top down, the part beside the leaf's way at each split; the path lists them from the leaf up.
  while (to - from > 1) {
    const k = splitOf(to - from);
    if (index < from + k) {
      path.unshift(rootOf(hashes, from + k, to));
      to = from + k;
    } else {
      path.unshift(rootOf(hashes, from, from + k));
      from += k;
    }
  }
  return path;
}

/**
 * The root that the leaf's data, its index, the tree's size and its audit path lead to (RFC 9162 §2.1.3.2), or null
 * when they cannot belong together (an index outside the tree, a path too long or too short for it).
 */
export function rootFromInclusionPath(leaf: Buffer, index: number, size: number, path: Buffer[]): Buffer | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let hash = leafHash(leaf);
  for (const sibling of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      hash = nodeHash(sibling, hash);
      // The last leaf of a level without a right neighbour rises alone until it is a right child.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      hash = nodeHash(hash, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? hash : null;
}
