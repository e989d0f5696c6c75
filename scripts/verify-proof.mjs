#!/usr/bin/env node
/**
 * Checks a Knack ledger proof on its own, with nothing of Knack's code: plain Node (18 or later), no dependencies.
 *
 *   node scripts/verify-proof.mjs proof.json [--horizon https://horizon.stellar.org]
 *
 * 1. Recomputes the Merkle root (RFC 6962 over SHA-256) from the entry's text, its leaf index, the tree's size and
 *    the audit path, and compares it with the proof's root.
 * 2. Fetches the anchoring transaction from Horizon (the proof's network's SDF Horizon unless --horizon names
 *    another) and checks that it succeeded, was sent by the proof's anchor account, and carries the root as its
 *    memo hash.
 * Prints what it checked and a verdict; exits 0 when every check passes, 1 when one fails, 2 when it cannot check
 * (a file that cannot be read, a Horizon that cannot be reached, a root not anchored yet).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const DEFAULT_HORIZONS = { testnet: 'https://horizon-testnet.stellar.org', public: 'https://horizon.stellar.org' };

const sha256 = (...parts) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const leafHash = (data) => sha256(Buffer.from([0]), data);
const nodeHash = (left, right) => sha256(Buffer.from([1]), left, right);

/** RFC 9162 §2.1.3.2: the root an audit path leads to from a leaf, or null when they cannot belong together. */
function rootFromPath(leaf, index, size, path) {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let hash = leafHash(leaf);
  for (const sibling of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      hash = nodeHash(sibling, hash);
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

const HEX_64 = /^[0-9a-f]{64}$/;

function usage(message) {
  console.error(`${message}\nUsage: node scripts/verify-proof.mjs proof.json [--horizon URL]`);
  process.exit(2);
}

function parseArgs(argv) {
  let file;
  let horizon;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--horizon') horizon = argv[++i] ?? usage('--horizon needs a URL.');
    else if (argv[i].startsWith('--horizon=')) horizon = argv[i].slice('--horizon='.length);
    else if (!file) file = argv[i];
    else usage(`Unexpected argument: ${argv[i]}`);
  }
  if (!file) usage('Name the proof file.');
  return { file, horizon };
}

function fail(reason) {
  console.log(`\nFAILED: ${reason}`);
  process.exit(1);
}

function cannotCheck(reason) {
  console.log(`\nNOT CHECKED: ${reason}`);
  process.exit(2);
}

const { file, horizon: horizonArg } = parseArgs(process.argv.slice(2));

let proof;
try {
  proof = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  cannotCheck(`${file} cannot be read as JSON (${err.message}).`);
}

if (proof?.version !== 1 || proof?.tree !== 'rfc6962-sha256') cannotCheck('This is not a Knack ledger proof of version 1 (tree rfc6962-sha256).');
if (typeof proof.entry !== 'string' || !Array.isArray(proof.path) || !HEX_64.test(proof.root ?? ''))
  fail('The proof is malformed: entry, path or root is missing.');
if (!proof.path.every((node) => HEX_64.test(node))) fail('The proof is malformed: every node of the path must be 64 hex digits.');

let entry;
try {
  entry = JSON.parse(proof.entry);
} catch {
  fail('The entry is not JSON.');
}
console.log(`Entry     ${proof.entryId} (${entry.kind}, ${entry.at})`);
for (const leg of entry.legs ?? []) console.log(`          ${leg.account}: ${leg.amountMicros} micro-units`);
if (entry._id !== proof.entryId) fail(`The entry's _id (${entry._id}) is not the proof's entryId (${proof.entryId}).`);
if (typeof entry.at !== 'string' || entry.at.slice(0, 10) !== proof.day) fail(`The entry's time (${entry.at}) is not on the proof's day (${proof.day}).`);

// 1. The root, from the entry and its path.
const computed = rootFromPath(
  Buffer.from(proof.entry, 'utf8'),
  proof.leafIndex,
  proof.treeSize,
  proof.path.map((node) => Buffer.from(node, 'hex')),
);
console.log(`Day       ${proof.day}: leaf ${proof.leafIndex} of ${proof.treeSize}`);
console.log(`Root      ${proof.root}`);
console.log(`Computed  ${computed ? computed.toString('hex') : '(the path does not fit a tree of this size)'}`);
if (!computed || computed.toString('hex') !== proof.root) fail('The entry and its path do not lead to the root: the entry is not the one the root holds.');
console.log('The entry and its audit path lead to the root.');

// 2. The root, on the network.
const anchor = proof.anchor ?? {};
if (anchor.status !== 'anchored' || !HEX_64.test(anchor.transactionHash ?? '')) {
  cannotCheck(`The day's root is not anchored on Stellar yet (${anchor.status ?? 'no anchor'}): download the proof again later.`);
}
const horizon = (horizonArg ?? DEFAULT_HORIZONS[anchor.network] ?? '').replace(/\/+$/, '');
if (!horizon) cannotCheck(`The proof is anchored on a ${anchor.network} network: name its Horizon with --horizon URL.`);

let record;
try {
  const answer = await fetch(`${horizon}/transactions/${anchor.transactionHash}`, { signal: AbortSignal.timeout(20_000) });
  if (answer.status === 404) fail(`Horizon at ${horizon} has no transaction ${anchor.transactionHash}.`);
  if (!answer.ok) cannotCheck(`Horizon at ${horizon} answered HTTP ${answer.status}.`);
  record = await answer.json();
} catch (err) {
  cannotCheck(`Horizon at ${horizon} cannot be reached (${err.message}).`);
}

console.log(`Anchor    transaction ${record.hash} in ledger ${record.ledger}, ${record.created_at}`);
console.log(`          from ${record.source_account} on ${horizon}`);
if (record.hash !== anchor.transactionHash) fail('Horizon answered another transaction.');
if (record.successful !== true) fail('The anchoring transaction failed on the network.');
if (anchor.account && record.source_account !== anchor.account)
  fail(`The transaction was sent by ${record.source_account}, not by the anchor account ${anchor.account}.`);
if (record.memo_type !== 'hash' || typeof record.memo !== 'string') fail(`The transaction's memo is not a hash (memo_type ${record.memo_type}).`);
const memo = Buffer.from(record.memo, 'base64').toString('hex');
console.log(`Memo      ${memo}`);
if (memo !== proof.root) fail("The transaction's memo hash is not the root: this root is not the one anchored.");

console.log(`\nVERIFIED: entry ${proof.entryId} is in the root of ${proof.day}, anchored on Stellar at ${record.created_at} by ${record.source_account}.`);
console.log('Check that this account is the anchor account your Knack names (docs/verifiable-earnings.md).');
