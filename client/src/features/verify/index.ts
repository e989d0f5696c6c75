/**
 * features/verify: the verifier page (`/verify`, open to visitors). A visitor gives a ledger proof (downloaded from a
 * member's wallet); the page recomputes the day's Merkle root from the entry in the browser and compares it with the
 * memo of the anchoring transaction on Horizon. Everything is in the page's lazy chunk.
 */
export const loadVerifyProofPage = () => import('./pages/VerifyProofPage');
