/**
 * The Merkle tree of RFC 6962 / RFC 9162 against the published test vectors of transparency-dev/merkle (the Go
 * library Certificate Transparency logs use): its eight leaf inputs, the root of every tree of 1 to 8 of them, and
 * the audit paths it gives for leaves of trees of 8, 5 and 3 leaves.
 */
import { createHash } from 'node:crypto';
import { inclusionPath, leafHash, merkleRoot, rootFromInclusionPath } from '../../server/lib/merkle';

const hex = (text: string) => Buffer.from(text, 'hex');

/** transparency-dev/merkle, testonly/constants.go: LeafInputs(). */
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(hex);

/** RootHashes(): the root of the tree of the first n leaves, n = 0 to 8. */
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

/** proof/verify_test.go: inclusionProofs (leaf index from 0 here; the Go table counts from 1). */
const PATHS: { index: number; size: number; path: string[] }[] = [
  {
    index: 0,
    size: 8,
    path: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    path: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, path: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    path: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];

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
