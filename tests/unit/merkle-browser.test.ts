/**
 * The proof verifier's Merkle check, the copy the browser runs with Web Crypto (client/src/features/verify), against
 * the same published vectors as the server's tree (transparency-dev/merkle), and against every path the server's
 * tree gives for trees of 1 to 8 leaves.
 */
import { inclusionPath, merkleRoot } from '../../server/lib/merkle';
import { fromHex, leafHash, rootFromInclusionPath, toHex } from '../../client/src/features/verify/testing';
import { hex, LEAVES, PATHS, ROOTS } from '../helpers/merkle-vectors';

const bytes = (buffer: Buffer) => new Uint8Array(buffer);

describe("the browser's RFC 6962 audit path check", () => {
  it('when one leaf is alone, then its leaf hash (0x00 before the data) is the published root of one leaf', async () => {
    expect(toHex(await leafHash(bytes(LEAVES[0]!)))).toBe(ROOTS[1]);
  });

  it('when given the published audit paths, then each leads from its leaf to the published root', async () => {
    for (const { index, size, path } of PATHS) {
      const root = await rootFromInclusionPath(bytes(LEAVES[index]!), index, size, path.map(fromHex));
      expect({ index, size, root: root && toHex(root) }).toEqual({ index, size, root: ROOTS[size] });
    }
  });

  it("when every leaf of every tree of 1 to 8 leaves is proved with the server's path, then it leads to the server's root, and a changed leaf or another index does not", async () => {
    for (let size = 1; size <= LEAVES.length; size++) {
      const leaves = LEAVES.slice(0, size);
      const root = merkleRoot(leaves).toString('hex');
      expect(root).toBe(ROOTS[size]);
      for (let index = 0; index < size; index++) {
        const path = inclusionPath(leaves, index).map(bytes);
        const found = await rootFromInclusionPath(bytes(leaves[index]!), index, size, path);
        expect(found && toHex(found)).toBe(root);
        const changed = await rootFromInclusionPath(bytes(Buffer.concat([leaves[index]!, hex('01')])), index, size, path);
        expect(changed && toHex(changed)).not.toBe(root);
        if (size > 1) {
          const moved = await rootFromInclusionPath(bytes(leaves[index]!), (index + 1) % size, size, path);
          expect(moved && toHex(moved)).not.toBe(root);
        }
      }
    }
  });

  it('when a path is too long, too short, or its index is outside the tree, then it leads nowhere (null)', async () => {
    const leaves = LEAVES.slice(0, 5);
    const path = inclusionPath(leaves, 1).map(bytes);
    const leaf = bytes(leaves[1]!);
    expect(await rootFromInclusionPath(leaf, 1, 5, [...path, path[0]!])).toBeNull();
    expect(await rootFromInclusionPath(leaf, 1, 5, path.slice(0, -1))).toBeNull();
    expect(await rootFromInclusionPath(leaf, 5, 5, path)).toBeNull();
    expect(await rootFromInclusionPath(leaf, 0, 0, [])).toBeNull();
  });

  it('when hex is read and written, then it round-trips, and text that is not hex is refused', () => {
    expect(toHex(fromHex(ROOTS[2]!))).toBe(ROOTS[2]);
    expect(() => fromHex('abc')).toThrow(RangeError);
    expect(() => fromHex('zz')).toThrow(RangeError);
  });
});
