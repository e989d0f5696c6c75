/**
 * The Merkle tree of RFC 6962 / RFC 9162 against the published test vectors of transparency-dev/merkle (the Go
 * library Certificate Transparency logs use): its eight leaf inputs, the root of every tree of 1 to 8 of them, and
 * the audit paths it gives for leaves of trees of 8, 5 and 3 leaves.
 */
import { createHash } from 'node:crypto';
import { inclusionPath, leafHash, merkleRoot, rootFromInclusionPath } from '../../server/lib/merkle';
import { hex, LEAVES, PATHS, ROOTS } from '../helpers/merkle-vectors';

describe('the RFC 6962 Merkle tree', () => {
  it('when given no leaves, then the root is the SHA-256 of nothing', () => {
    expect(merkleRoot([]).toString('hex')).toBe(createHash('sha256').digest('hex'));
    expect(merkleRoot([]).toString('hex')).toBe(ROOTS[0]);
  });

  it('when given the first n of the published leaves, then the root is the published root of each size from 1 to 8', () => {
    for (let size = 1; size <= LEAVES.length; size++) {
      expect({ size, root: merkleRoot(LEAVES.slice(0, size)).toString('hex') }).toEqual({ size, root: ROOTS[size] });
    }
  });

  it('when one leaf is alone, then its leaf hash (0x00 before the data) is the root', () => {
    expect(leafHash(LEAVES[0]!).toString('hex')).toBe(ROOTS[1]);
  });

  it('when asked for the published audit paths, then it gives them exactly, and each leads from its leaf to the root', () => {
    for (const { index, size, path } of PATHS) {
      const leaves = LEAVES.slice(0, size);
      expect(inclusionPath(leaves, index).map((node) => node.toString('hex'))).toEqual(path);
      expect(rootFromInclusionPath(leaves[index]!, index, size, path.map(hex))?.toString('hex')).toBe(ROOTS[size]);
    }
  });

  it('when every leaf of every tree of 1 to 8 leaves is proved, then its own path leads to the root, and no other leaf or index does', () => {
    for (let size = 1; size <= LEAVES.length; size++) {
      const leaves = LEAVES.slice(0, size);
      const root = merkleRoot(leaves);
      for (let index = 0; index < size; index++) {
        const path = inclusionPath(leaves, index);
        expect(rootFromInclusionPath(leaves[index]!, index, size, path)).toEqual(root);
        const changed = Buffer.concat([leaves[index]!, Buffer.from([1])]);
        expect(rootFromInclusionPath(changed, index, size, path)).not.toEqual(root);
        if (size > 1) expect(rootFromInclusionPath(leaves[index]!, (index + 1) % size, size, path)).not.toEqual(root);
      }
    }
  });

  it('when a path is too long, too short, or its index is outside the tree, then it leads nowhere (null)', () => {
    const leaves = LEAVES.slice(0, 5);
    const path = inclusionPath(leaves, 1);
    expect(rootFromInclusionPath(leaves[1]!, 1, 5, [...path, path[0]!])).toBeNull();
    expect(rootFromInclusionPath(leaves[1]!, 1, 5, path.slice(0, -1))).toBeNull();
    expect(rootFromInclusionPath(leaves[1]!, 5, 5, path)).toBeNull();
    expect(rootFromInclusionPath(leaves[1]!, 0, 0, [])).toBeNull();
    expect(() => inclusionPath(leaves, 5)).toThrow(RangeError);
  });

  it('when a day has many entries, then every one of 1000 leaves has a path of at most 10 nodes to the root', () => {
    const leaves = Array.from({ length: 1000 }, (_, i) => Buffer.from(`entry ${i}`));
    const root = merkleRoot(leaves);
    for (const index of [0, 1, 511, 512, 998, 999]) {
      const path = inclusionPath(leaves, index);
      expect(path.length).toBeLessThanOrEqual(10);
      expect(rootFromInclusionPath(leaves[index]!, index, leaves.length, path)).toEqual(root);
    }
  });
});
