/**
 * What tests use of this feature beyond its index.ts: the browser's Merkle check, tested against the same vectors as
 * the server's tree. Production code never imports this file (the linter refuses it).
 */
export { fromHex, leafHash, rootFromInclusionPath, toHex } from './proof/merkle';
