/**
 * The Merkle tree of Certificate Transparency (RFC 6962 §2.1, kept as RFC 9162 §2.1) over SHA-256, as the browser
 * computes it with Web Crypto: the check of an audit path, the one thing a verifier needs. The server builds the tree
 * with the same rules (a leaf's hash is SHA-256(0x00 ‖ data), a node's SHA-256(0x01 ‖ left ‖ right)); this is a copy
 * of its own, so that the page checks a proof with nothing the server computed.
 */

const sha256 = async (...parts: Uint8Array[]): Promise<Uint8Array> => {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
};

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);

/** The hash of a leaf's data: SHA-256(0x00 ‖ data). */
export const leafHash = (data: Uint8Array) => sha256(LEAF, data);

/** The hash of a node: SHA-256(0x01 ‖ left ‖ right). */
export const nodeHash = (left: Uint8Array, right: Uint8Array) => sha256(NODE, left, right);

/** Bytes as lower-case hex. */
export const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Hex (an even number of hex digits) as bytes. */
export function fromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new RangeError(`Not hex: ${hex}`);
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/**
 * The root that a leaf's data, its index, the tree's size and its audit path (from the leaf up) lead to
 * (RFC 9162 §2.1.3.2), or null when they cannot belong together (an index outside the tree, a path too long or
 * too short for it).
 */
export async function rootFromInclusionPath(leaf: Uint8Array, index: number, size: number, path: Uint8Array[]): Promise<Uint8Array | null> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let hash = await leafHash(leaf);
  for (const sibling of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      hash = await nodeHash(sibling, hash);
      // The last leaf of a level without a right neighbour rises alone until it is a right child.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      hash = await nodeHash(hash, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? hash : null;
}
