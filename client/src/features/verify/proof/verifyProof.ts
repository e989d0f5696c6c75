/**
 * Checks a Knack ledger proof in the browser, as scripts/verify-proof.mjs does in Node: the root recomputed from the
 * entry's text, its leaf index, the tree's size and the audit path; then the anchoring transaction read from Horizon
 * (it succeeded, came from the proof's anchor account, and carries the root as its memo hash). Nothing here asks
 * Knack's server: the visitor's browser talks to Horizon itself.
 */
import type { components } from '../../../../../generated/openapi';
import { fromHex, rootFromInclusionPath, toHex } from './merkle';

export type LedgerProof = components['schemas']['LedgerProof'];

/** The SDF's Horizon of each public network; a custom network's Horizon is named by the visitor. */
export const SDF_HORIZONS: Readonly<Record<string, string>> = {
  testnet: 'https://horizon-testnet.stellar.org',
  public: 'https://horizon.stellar.org',
};

export type VerdictKind = 'verified' | 'root-mismatch' | 'not-anchored' | 'unreachable' | 'failed' | 'not-a-proof';

export interface Verdict {
  kind: VerdictKind;
  /** What was found, in a sentence. */
  reason: string;
  /** The root the entry and its path lead to, once computed (null when the path does not fit the tree). */
  computedRoot?: string | null;
  /** The anchoring transaction as Horizon answered it, once read. */
  transaction?: { hash: string; ledger: number; createdAt: string; sourceAccount: string; memo: string | null; horizon: string };
}

const HEX_64 = /^[0-9a-f]{64}$/;

/** The proof in a text (a file's or a pasted one), or the verdict saying why it is not one. */
export function readProof(text: string): { proof: LedgerProof } | { verdict: Verdict } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { verdict: { kind: 'not-a-proof', reason: 'This is not JSON: choose or paste the proof file as it was downloaded.' } };
  }
  const proof = value as Partial<LedgerProof> | null;
  if (proof?.version !== 1 || proof.tree !== 'rfc6962-sha256') {
    return { verdict: { kind: 'not-a-proof', reason: 'This is not a Knack ledger proof of version 1 (tree rfc6962-sha256).' } };
  }
  const wellFormed =
    typeof proof.entry === 'string' &&
    typeof proof.entryId === 'string' &&
    typeof proof.day === 'string' &&
    Array.isArray(proof.path) &&
    proof.path.every((node) => typeof node === 'string' && HEX_64.test(node)) &&
    HEX_64.test(proof.root ?? '') &&
    typeof proof.anchor === 'object' &&
    proof.anchor !== null;
  if (!wellFormed)
    return { verdict: { kind: 'not-a-proof', reason: 'The proof is malformed: its entry, audit path, root or anchor is missing or not as written.' } };
  return { proof: proof as LedgerProof };
}

/** The entry's fields the page shows (its kind and time), when its text is JSON. */
export function entryFacts(proof: LedgerProof): { kind?: string; at?: string; id?: string } {
  try {
    const entry = JSON.parse(proof.entry) as { kind?: unknown; at?: unknown; _id?: unknown };
    return {
      kind: typeof entry.kind === 'string' ? entry.kind : undefined,
      at: typeof entry.at === 'string' ? entry.at : undefined,
      id: typeof entry._id === 'string' ? entry._id : undefined,
    };
  } catch {
    return {};
  }
}

/** The root the proof's entry and audit path lead to, as hex, or null when the path does not fit a tree of its size. */
export async function computeRoot(proof: LedgerProof): Promise<string | null> {
  const root = await rootFromInclusionPath(new TextEncoder().encode(proof.entry), proof.leafIndex, proof.treeSize, proof.path.map(fromHex));
  return root ? toHex(root) : null;
}

/** Base64 (Horizon's memo) as hex, or null when it is not base64. */
function base64ToHex(text: string): string | null {
  try {
    return toHex(Uint8Array.from(atob(text), (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The Horizon a proof is checked against: the one the visitor names, else its network's SDF Horizon (none for a custom network). */
export function horizonFor(proof: LedgerProof, given: string): string | null {
  const url = given.trim() || SDF_HORIZONS[proof.anchor.network] || '';
  return url ? url.replace(/\/+$/, '') : null;
}

interface HorizonTransaction {
  hash?: string;
  ledger?: number;
  created_at?: string;
  source_account?: string;
  successful?: boolean;
  memo_type?: string;
  memo?: string;
}

/**
 * The whole check of a proof: its entry against its root, then its root against the anchoring transaction on
 * `horizon` (see horizonFor). Answers the verdict; never throws.
 */
export async function verifyProof(proof: LedgerProof, givenHorizon: string): Promise<Verdict> {
  const facts = entryFacts(proof);
  if (facts.id !== proof.entryId) {
    return { kind: 'root-mismatch', reason: `The entry's id (${facts.id ?? 'none'}) is not the proof's entry (${proof.entryId}).` };
  }
  if (facts.at?.slice(0, 10) !== proof.day) {
    return { kind: 'root-mismatch', reason: `The entry's time (${facts.at ?? 'none'}) is not on the proof's day (${proof.day}).` };
  }
  const computedRoot = await computeRoot(proof);
  if (computedRoot !== proof.root) {
    return {
      kind: 'root-mismatch',
      computedRoot,
      reason: 'The entry and its audit path do not lead to the proof’s root: the entry is not the one the root holds.',
    };
  }

  const { anchor } = proof;
  if (anchor.status !== 'anchored' || !HEX_64.test(anchor.transactionHash ?? '')) {
    return {
      kind: 'not-anchored',
      computedRoot,
      reason: `The entry is in its day's root, but the root is not anchored on Stellar yet (${anchor.status}): download the proof again later.`,
    };
  }
  const horizon = horizonFor(proof, givenHorizon);
  if (!horizon) {
    return { kind: 'unreachable', computedRoot, reason: `The proof is anchored on a ${anchor.network} network: give the address of its Horizon.` };
  }

  let record: HorizonTransaction;
  try {
    const answer = await fetch(`${horizon}/transactions/${anchor.transactionHash}`, { signal: AbortSignal.timeout(20_000) });
    if (answer.status === 404) {
      return { kind: 'failed', computedRoot, reason: `Horizon at ${horizon} has no transaction ${anchor.transactionHash}.` };
    }
    if (!answer.ok) return { kind: 'unreachable', computedRoot, reason: `Horizon at ${horizon} answered HTTP ${answer.status}.` };
    record = (await answer.json()) as HorizonTransaction;
  } catch {
    return { kind: 'unreachable', computedRoot, reason: `Horizon at ${horizon} cannot be reached. Check the address, or try again later.` };
  }

  const memo = record.memo_type === 'hash' && typeof record.memo === 'string' ? base64ToHex(record.memo) : null;
  const transaction = {
    hash: record.hash ?? '',
    ledger: record.ledger ?? 0,
    createdAt: record.created_at ?? '',
    sourceAccount: record.source_account ?? '',
    memo,
    horizon,
  };
  const failed = (reason: string): Verdict => ({ kind: 'failed', computedRoot, transaction, reason });
  if (record.hash !== anchor.transactionHash) return failed('Horizon answered another transaction.');
  if (record.successful !== true) return failed('The anchoring transaction failed on the network.');
  if (anchor.account && record.source_account !== anchor.account) {
    return failed(`The transaction was sent by ${record.source_account ?? 'an unknown account'}, not by the anchor account ${anchor.account}.`);
  }
  if (memo === null) return failed(`The transaction's memo is not a hash (memo type ${record.memo_type ?? 'none'}).`);
  if (memo !== proof.root) {
    return { kind: 'root-mismatch', computedRoot, transaction, reason: "The transaction's memo hash is not the root: this root is not the one anchored." };
  }
  return {
    kind: 'verified',
    computedRoot,
    transaction,
    reason: `The entry ${proof.entryId} is in the root of ${proof.day}, anchored on Stellar at ${transaction.createdAt} by ${transaction.sourceAccount}.`,
  };
}
