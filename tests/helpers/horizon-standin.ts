/**
 * A loopback stand-in for Horizon, Stellar's HTTP API, for the part of it Knack uses, speaking the real API:
 * `GET /` (the root), `GET /accounts/{id}` (an account as Horizon writes it, or 404 problem+json),
 * `POST /transactions` (form field `tx`: a base64 XDR envelope; Horizon's transaction record, or its 400
 * problem+json with `extras.result_codes`), `GET /transactions/{hash}`, `GET /order_book` and
 * `GET /paths/strict-send` (the XLM/USDC market the test sets), and `GET /fee_stats`.
 *
 * Each submitted transaction is checked with the Stellar SDK as the network checks it, and only then applied:
 * its signatures over the hash for this network's passphrase (so one signed for another network is refused),
 * against the signers and weights of each source account and the threshold each operation needs; the source's
 * sequence number (current + 1); the fee (at least the base fee for each operation, charged to the source); the
 * time bounds against the stand-in's clock; balances against the minimum reserve ((2 + subentries) x 0.5 XLM).
 * It applies createAccount, payment (XLM and issued assets), changeTrust, manageData and setOptions, one after
 * the other on the ledger as the operations before left it, and keeps none of them when one fails (the fee and
 * the sequence number are still taken, as on the network). Any other operation, a fee-bump envelope or
 * preconditions other than time bounds are refused as not supported, so a test never believes a success the
 * network would not give. Amounts are integer stroops (bigint), written with 7 decimals as Horizon writes them.
 *
 * It follows stellar-core's rules (TransactionFrame, OperationFrame, SignatureChecker) without sponsorships,
 * liabilities or offers, and it imports nothing of the server's code.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Asset, FeeBumpTransaction, Keypair, Networks, StrKey, TransactionBuilder, xdr, type Operation, type Transaction } from '@stellar/stellar-sdk';
import type { StellarConfig } from '../../server/config';

const STROOPS = 10_000_000n;
const BASE_RESERVE = 5_000_000n; // 0.5 XLM
const MAX_SIGNERS = 20;
const TESTNET_USDC_ISSUER = 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5';
const PROBLEMS = 'https://stellar.org/horizon-errors';
const FLAGS = { authRequired: 1, authRevocable: 2, authImmutable: 4, authClawback: 8 } as const;

/** Stroops of an amount written with up to 7 decimals ("2.5" -> 25 000 000n). */
export function stroops(amount: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,7}))?$/.exec(amount);
  if (!match) throw new RangeError(`Not a Stellar amount: "${amount}"`);
  return BigInt(match[1]!) * STROOPS + BigInt((match[2] ?? '').padEnd(7, '0'));
}

/** Stroops with the 7 decimals Horizon writes (25 000 000n -> "2.5000000"). */
export function amountOf(value: bigint): string {
  return `${value / STROOPS}.${String(value % STROOPS).padStart(7, '0')}`;
}

interface Trustline {
  code: string;
  issuer: string;
  balance: bigint;
  limit: bigint;
  authorized: boolean;
  lastModifiedLedger: number;
}

interface LedgerAccount {
  id: string;
  sequence: bigint;
  sequenceLedger: number;
  sequenceTime: number;
  balance: bigint;
  subentries: number;
  masterWeight: number;
  thresholds: { low: number; med: number; high: number };
  /** Signers other than the master key: ed25519 public key -> weight (1 to 255). */
  signers: Map<string, number>;
  /** By `CODE:ISSUER`. */
  trustlines: Map<string, Trustline>;
  /** Name -> value in base64, as Horizon writes it. */
  data: Map<string, string>;
  homeDomain: string;
  flags: number;
  lastModifiedLedger: number;
}

type Ledger = Map<string, LedgerAccount>;

export interface ResultCodes {
  transaction: string;
  operations?: string[];
}

/** What was submitted and how the stand-in answered, in order. */
export interface SubmittedTransaction {
  hash: string;
  envelopeXdr: string;
  /** The parsed transaction (null when the envelope could not be read or is a fee bump). */
  transaction: Transaction | null;
  status: number;
  successful: boolean;
  resultCodes?: ResultCodes;
}

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
}

interface Offer {
  /** USDC per XLM. */
  price: string;
  /** XLM offered (asks) or wanted (bids). */
  amount: string;
}

interface Outcome {
  code: string;
  result: () => xdr.OperationResult;
}

type OpType = 'createAccount' | 'payment' | 'changeTrust' | 'manageData' | 'setOptions';

/** The XDR result arm of each Horizon operation code, per operation type. */
const INNER_RESULTS: Record<OpType, { union: Record<string, () => unknown>; arms: Record<string, string> }> = {
  createAccount: {
    union: xdr.CreateAccountResult as unknown as Record<string, () => unknown>,
    arms: {
      op_success: 'createAccountSuccess',
      op_malformed: 'createAccountMalformed',
      op_underfunded: 'createAccountUnderfunded',
      op_low_reserve: 'createAccountLowReserve',
      op_already_exists: 'createAccountAlreadyExist',
    },
  },
  payment: {
    union: xdr.PaymentResult as unknown as Record<string, () => unknown>,
    arms: {
      op_success: 'paymentSuccess',
      op_malformed: 'paymentMalformed',
      op_underfunded: 'paymentUnderfunded',
      op_src_no_trust: 'paymentSrcNoTrust',
      op_src_not_authorized: 'paymentSrcNotAuthorized',
      op_no_destination: 'paymentNoDestination',
      op_no_trust: 'paymentNoTrust',
      op_not_authorized: 'paymentNotAuthorized',
      op_line_full: 'paymentLineFull',
    },
  },
  changeTrust: {
    union: xdr.ChangeTrustResult as unknown as Record<string, () => unknown>,
    arms: {
      op_success: 'changeTrustSuccess',
      op_malformed: 'changeTrustMalformed',
      op_no_issuer: 'changeTrustNoIssuer',
      op_invalid_limit: 'changeTrustInvalidLimit',
      op_low_reserve: 'changeTrustLowReserve',
      op_trust_line_missing: 'changeTrustTrustLineMissing',
    },
  },
  manageData: {
    union: xdr.ManageDataResult as unknown as Record<string, () => unknown>,
    arms: {
      op_success: 'manageDataSuccess',
      op_data_name_not_found: 'manageDataNameNotFound',
      op_low_reserve: 'manageDataLowReserve',
      op_data_invalid_name: 'manageDataInvalidName',
    },
  },
  setOptions: {
    union: xdr.SetOptionsResult as unknown as Record<string, () => unknown>,
    arms: {
      op_success: 'setOptionsSuccess',
      op_low_reserve: 'setOptionsLowReserve',
      op_too_many_signers: 'setOptionsTooManySigners',
      op_bad_flags: 'setOptionsBadFlags',
      op_cant_change: 'setOptionsCantChange',
      op_unknown_flag: 'setOptionsUnknownFlag',
      op_threshold_out_of_range: 'setOptionsThresholdOutOfRange',
      op_bad_signer: 'setOptionsBadSigner',
      op_invalid_home_domain: 'setOptionsInvalidHomeDomain',
      op_auth_revocable_required: 'setOptionsAuthRevocableRequired',
    },
  },
};

const inner = (type: OpType, code: string): Outcome => ({
  code,
  result: () => {
    const { union, arms } = INNER_RESULTS[type];
    const make = xdr.OperationResultTr[type] as unknown as (value: unknown) => xdr.OperationResultTr;
    return xdr.OperationResult.opInner(make(union[arms[code]!]!()));
  },
});
const OP_BAD_AUTH: Outcome = { code: 'op_bad_auth', result: () => xdr.OperationResult.opBadAuth() };
const OP_NO_ACCOUNT: Outcome = { code: 'op_no_source_account', result: () => xdr.OperationResult.opNoAccount() };
const OP_NOT_SUPPORTED: Outcome = { code: 'op_not_supported', result: () => xdr.OperationResult.opNotSupported() };

/** The XDR arm of each transaction-level code. */
const TX_RESULTS: Record<string, () => xdr.TransactionResultResult> = {
  tx_too_early: () => xdr.TransactionResultResult.txTooEarly(),
  tx_too_late: () => xdr.TransactionResultResult.txTooLate(),
  tx_missing_operation: () => xdr.TransactionResultResult.txMissingOperation(),
  tx_bad_seq: () => xdr.TransactionResultResult.txBadSeq(),
  tx_bad_auth: () => xdr.TransactionResultResult.txBadAuth(),
  tx_insufficient_balance: () => xdr.TransactionResultResult.txInsufficientBalance(),
  tx_no_source_account: () => xdr.TransactionResultResult.txNoAccount(),
  tx_insufficient_fee: () => xdr.TransactionResultResult.txInsufficientFee(),
  tx_bad_auth_extra: () => xdr.TransactionResultResult.txBadAuthExtra(),
  tx_not_supported: () => xdr.TransactionResultResult.txNotSupported(),
};

const SUPPORTED: ReadonlySet<string> = new Set(Object.keys(INNER_RESULTS));

/** Signatures checked against signers as stellar-core's SignatureChecker does, remembering which were used. */
class SignatureChecker {
  private readonly used: boolean[];

  constructor(
    private readonly hash: Buffer,
    private readonly signatures: xdr.DecoratedSignature[],
  ) {
    this.used = signatures.map(() => false);
  }

  /** At least one signature of these signers, and their weights (each at most 255) adding up to `needed`. */
  check(signers: { key: string; weight: number }[], needed: number): boolean {
    const left = [...signers];
    let total = 0;
    this.signatures.forEach((signature, index) => {
      if (total >= needed && total > 0) return;
      const at = left.findIndex(({ key }) => {
        const keypair = Keypair.fromPublicKey(key);
        return keypair.signatureHint().equals(signature.hint()) && keypair.verify(this.hash, signature.signature());
      });
      if (at === -1) return;
      this.used[index] = true;
      total += Math.min(left[at]!.weight, 255);
      left.splice(at, 1);
    });
    return total > 0 && total >= needed;
  }

  allUsed(): boolean {
    return this.used.every(Boolean);
  }
}

const signersOf = (account: LedgerAccount) => [
  ...(account.masterWeight > 0 ? [{ key: account.id, weight: account.masterWeight }] : []),
  ...[...account.signers].map(([key, weight]) => ({ key, weight })),
];

const minimumBalance = (account: LedgerAccount, extraSubentries = 0) => (2n + BigInt(account.subentries + extraSubentries)) * BASE_RESERVE;
const available = (account: LedgerAccount) => account.balance - minimumBalance(account);

function copyLedger(ledger: Ledger): Ledger {
  return new Map(
    [...ledger].map(([id, account]) => [
      id,
      {
        ...account,
        thresholds: { ...account.thresholds },
        signers: new Map(account.signers),
        trustlines: new Map([...account.trustlines].map(([key, line]) => [key, { ...line }])),
        data: new Map(account.data),
      },
    ]),
  );
}

function assetKey(asset: Asset): string {
  return `${asset.getCode()}:${asset.getIssuer()}`;
}

function neededThreshold(op: Operation, account: LedgerAccount): number {
  if (op.type !== 'setOptions') return account.thresholds.med;
  const changesSigning =
    op.masterWeight !== undefined ||
    op.lowThreshold !== undefined ||
    op.medThreshold !== undefined ||
    op.highThreshold !== undefined ||
    op.signer !== undefined;
  return changesSigning ? account.thresholds.high : account.thresholds.med;
}

const printable = (text: string, max: number) => text.length > 0 && text.length <= max && /^[\x20-\x7e]*$/.test(text);

/** The checks of an operation that need no ledger (stellar-core's doCheckValid): a code when it is refused. */
function malformed(op: Operation, source: string): string | null {
  switch (op.type) {
    case 'createAccount':
      return op.destination === source || stroops(op.startingBalance) < 0n ? 'op_malformed' : null;
    case 'payment':
      return stroops(op.amount) <= 0n ? 'op_malformed' : null;
    case 'changeTrust': {
      const line = op.line as Asset;
      return line.isNative() || line.getIssuer() === source || stroops(op.limit) < 0n ? 'op_malformed' : null;
    }
    case 'manageData':
      return printable(op.name, 64) ? null : 'op_data_invalid_name';
    case 'setOptions': {
      const weights = [op.masterWeight, op.lowThreshold, op.medThreshold, op.highThreshold].filter((w) => w !== undefined);
      if (weights.some((w) => Number(w) > 255)) return 'op_threshold_out_of_range';
      const setFlags = Number(op.setFlags ?? 0);
      const clearFlags = Number(op.clearFlags ?? 0);
      if ((setFlags | clearFlags) & ~0xf) return 'op_unknown_flag';
      if (setFlags & clearFlags) return 'op_bad_flags';
      if (op.signer && 'ed25519PublicKey' in op.signer && (op.signer.ed25519PublicKey === source || Number(op.signer.weight) > 255)) return 'op_bad_signer';
      if (op.homeDomain !== undefined && op.homeDomain.length > 32) return 'op_invalid_home_domain';
      return null;
    }
    default:
      return null;
  }
}

/** What this stand-in does not model: refused as not supported rather than half applied. */
function unsupported(op: Operation): boolean {
  if (!SUPPORTED.has(op.type)) return true;
  if (op.source?.startsWith('M') || (op.type === 'payment' && op.destination.startsWith('M'))) return true;
  if (op.type === 'changeTrust') return !(op.line instanceof Asset);
  if (op.type === 'setOptions') return op.inflationDest !== undefined || (op.signer !== undefined && !('ed25519PublicKey' in op.signer));
  return false;
}

export interface HorizonStandInOptions {
  /** testnet by default; any passphrase makes a custom network. */
  passphrase?: string;
  /** The dollar asset of the market the test sets: Circle's testnet USDC by default. */
  usdc?: { code: string; issuer: string };
  /** The network's base fee per operation, in stroops (100, as on the SDF networks). */
  baseFee?: number;
}

export async function startHorizonStandIn({
  passphrase = Networks.TESTNET,
  usdc = { code: 'USDC', issuer: TESTNET_USDC_ISSUER },
  baseFee: initialBaseFee = 100,
}: HorizonStandInOptions = {}) {
  let ledger: Ledger = new Map();
  let ledgerSequence = 100;
  let baseFee = BigInt(initialBaseFee);
  let announceBaseFee = true;
  let clockOffsetSeconds = 0;
  let asks: Offer[] = [];
  let bids: Offer[] = [];
  let pathRates: string[] = [];
  const failures: number[] = [];
  let stalls = 0;
  const stalled: http.ServerResponse[] = [];
  const submitted: SubmittedTransaction[] = [];
  const requests: StandInRequest[] = [];
  /** Transactions that made it into a ledger, by hash: their record and, when they failed, their result codes. */
  const history = new Map<string, { record: Record<string, unknown>; resultCodes?: ResultCodes }>();

  const nowSeconds = () => Math.floor(Date.now() / 1000) + clockOffsetSeconds;
  const closedAt = () => new Date(nowSeconds() * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  function newAccount(id: string, balance: bigint): LedgerAccount {
    return {
      id,
      // A new account's sequence number is the ledger it was made in, shifted 32 bits, as on the network.
      sequence: BigInt(ledgerSequence) << 32n,
      sequenceLedger: 0,
      sequenceTime: 0,
      balance,
      subentries: 0,
      masterWeight: 1,
      thresholds: { low: 0, med: 0, high: 0 },
      signers: new Map(),
      trustlines: new Map(),
      data: new Map(),
      homeDomain: '',
      flags: 0,
      lastModifiedLedger: ledgerSequence,
    };
  }

  // ---- Horizon's JSON ----

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const link = (path: string, templated = false) => ({ href: `${url}${path}`, ...(templated && { templated: true }) });

  function send(res: http.ServerResponse, status: number, body: unknown) {
    const problem = status >= 400;
    res.writeHead(status, {
      'Content-Type': problem ? 'application/problem+json; charset=utf-8' : 'application/hal+json; charset=utf-8',
      'X-Ratelimit-Limit': '3600',
      // Horizon lets any web page read it (a browser-side verifier does).
      'Access-Control-Allow-Origin': '*',
      Date: new Date().toUTCString(),
    });
    res.end(JSON.stringify(body));
  }

  const notFound = () => ({
    type: `${PROBLEMS}/not_found`,
    title: 'Resource Missing',
    status: 404,
    detail:
      'The resource at the url requested was not found.  This usually occurs for one of two reasons:  The url requested is not valid, or no data in our database could be found with the parameters provided.',
  });
  const badRequest = (field: string, reason: string) => ({
    type: `${PROBLEMS}/bad_request`,
    title: 'Bad Request',
    status: 400,
    detail: 'The request you sent was invalid in some way.',
    extras: { invalid_field: field, reason },
  });

  function accountJson(account: LedgerAccount) {
    const path = `/accounts/${account.id}`;
    const lines = [...account.trustlines.values()].map((line) => ({
      balance: amountOf(line.balance),
      limit: amountOf(line.limit),
      buying_liabilities: '0.0000000',
      selling_liabilities: '0.0000000',
      last_modified_ledger: line.lastModifiedLedger,
      is_authorized: line.authorized,
      is_authorized_to_maintain_liabilities: line.authorized,
      asset_type: line.code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12',
      asset_code: line.code,
      asset_issuer: line.issuer,
    }));
    return {
      _links: {
        self: link(path),
        transactions: link(`${path}/transactions{?cursor,limit,order}`, true),
        operations: link(`${path}/operations{?cursor,limit,order}`, true),
        payments: link(`${path}/payments{?cursor,limit,order}`, true),
        effects: link(`${path}/effects{?cursor,limit,order}`, true),
        offers: link(`${path}/offers{?cursor,limit,order}`, true),
        trades: link(`${path}/trades{?cursor,limit,order}`, true),
        data: link(`${path}/data/{key}`, true),
      },
      id: account.id,
      account_id: account.id,
      sequence: String(account.sequence),
      sequence_ledger: account.sequenceLedger,
      sequence_time: String(account.sequenceTime),
      subentry_count: account.subentries,
      ...(account.homeDomain && { home_domain: account.homeDomain }),
      last_modified_ledger: account.lastModifiedLedger,
      last_modified_time: closedAt(),
      thresholds: { low_threshold: account.thresholds.low, med_threshold: account.thresholds.med, high_threshold: account.thresholds.high },
      flags: {
        auth_required: Boolean(account.flags & FLAGS.authRequired),
        auth_revocable: Boolean(account.flags & FLAGS.authRevocable),
        auth_immutable: Boolean(account.flags & FLAGS.authImmutable),
        auth_clawback_enabled: Boolean(account.flags & FLAGS.authClawback),
      },
      balances: [...lines, { balance: amountOf(account.balance), buying_liabilities: '0.0000000', selling_liabilities: '0.0000000', asset_type: 'native' }],
      signers: [
        ...[...account.signers].map(([key, weight]) => ({ weight, key, type: 'ed25519_public_key' })),
        { weight: account.masterWeight, key: account.id, type: 'ed25519_public_key' },
      ],
      data: Object.fromEntries(account.data),
      num_sponsoring: 0,
      num_sponsored: 0,
      paging_token: account.id,
    };
  }

  function transactionRecord(tx: Transaction, hash: string, envelopeXdr: string, resultXdr: string, feeCharged: bigint, successful: boolean, inLedger: number) {
    const path = `/transactions/${hash}`;
    const bounds = tx.timeBounds;
    return {
      _links: {
        self: link(path),
        account: link(`/accounts/${tx.source}`),
        ledger: link(`/ledgers/${inLedger}`),
        operations: link(`${path}/operations{?cursor,limit,order}`, true),
        effects: link(`${path}/effects{?cursor,limit,order}`, true),
        precedes: link(`/transactions?order=asc&cursor=${inLedger}`),
        succeeds: link(`/transactions?order=desc&cursor=${inLedger}`),
        transaction: link(path),
      },
      id: hash,
      paging_token: String((BigInt(inLedger) << 32n) | 4096n),
      successful,
      hash,
      ledger: inLedger,
      created_at: closedAt(),
      source_account: tx.source,
      source_account_sequence: tx.sequence,
      fee_account: tx.source,
      fee_charged: String(feeCharged),
      max_fee: tx.fee,
      operation_count: tx.operations.length,
      envelope_xdr: envelopeXdr,
      result_xdr: resultXdr,
      memo_type: tx.memo.type,
      ...(tx.memo.value !== null && { memo: Buffer.isBuffer(tx.memo.value) ? tx.memo.value.toString('base64') : String(tx.memo.value) }),
      signatures: tx.signatures.map((signature) => signature.signature().toString('base64')),
      ...(bounds && {
        valid_after: new Date(Number(bounds.minTime) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        ...(bounds.maxTime !== '0' && { valid_before: new Date(Number(bounds.maxTime) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') }),
        preconditions: { timebounds: { min_time: bounds.minTime, ...(bounds.maxTime !== '0' && { max_time: bounds.maxTime }) } },
      }),
    };
  }

  function resultXdr(feeCharged: bigint, result: xdr.TransactionResultResult): string {
    return new xdr.TransactionResult({ feeCharged: xdr.Int64.fromString(String(feeCharged)), result, ext: new xdr.TransactionResultExt(0) }).toXDR('base64');
  }

  function failedProblem(envelopeXdr: string, codes: ResultCodes, result: string) {
    return {
      type: `${PROBLEMS}/transaction_failed`,
      title: 'Transaction Failed',
      status: 400,
      detail:
        'The transaction failed when submitted to the stellar network. The `extras.result_codes` field on this response contains further details.  Descriptions of each code can be found at: https://developers.stellar.org/docs/data/apis/horizon/api-reference/errors/http-status-codes/horizon-specific/transaction-failed',
      extras: { envelope_xdr: envelopeXdr, result_codes: codes, result_xdr: result },
    };
  }

  // ---- operations ----

  /** Applies one operation to `state` (a copy the caller keeps only when it succeeds). */
  function apply(op: Operation, sourceId: string, state: Ledger): Outcome {
    const source = state.get(sourceId)!;
    const touch = (...accounts: LedgerAccount[]) => accounts.forEach((account) => (account.lastModifiedLedger = ledgerSequence));
    switch (op.type) {
      case 'createAccount': {
        const starting = stroops(op.startingBalance);
        if (state.has(op.destination)) return inner('createAccount', 'op_already_exists');
        if (starting < 2n * BASE_RESERVE) return inner('createAccount', 'op_low_reserve');
        if (available(source) < starting) return inner('createAccount', 'op_underfunded');
        source.balance -= starting;
        state.set(op.destination, newAccount(op.destination, starting));
        touch(source);
        return inner('createAccount', 'op_success');
      }
      case 'payment': {
        const amount = stroops(op.amount);
        const destination = state.get(op.destination);
        if (!destination) return inner('payment', 'op_no_destination');
        if (op.asset.isNative()) {
          if (available(source) < amount) return inner('payment', 'op_underfunded');
          source.balance -= amount;
          destination.balance += amount;
          touch(source, destination);
          return inner('payment', 'op_success');
        }
        const key = assetKey(op.asset);
        const issuer = op.asset.getIssuer();
        // The destination first, then the source, as stellar-core's path payment does.
        const received = destination.id === issuer ? null : destination.trustlines.get(key);
        if (destination.id !== issuer) {
          if (!received) return inner('payment', 'op_no_trust');
          if (!received.authorized) return inner('payment', 'op_not_authorized');
          if (received.balance + amount > received.limit) return inner('payment', 'op_line_full');
        }
        const paid = source.id === issuer ? null : source.trustlines.get(key);
        if (source.id !== issuer) {
          if (!paid) return inner('payment', 'op_src_no_trust');
          if (!paid.authorized) return inner('payment', 'op_src_not_authorized');
          if (paid.balance < amount) return inner('payment', 'op_underfunded');
        }
        if (received) {
          received.balance += amount;
          received.lastModifiedLedger = ledgerSequence;
        }
        if (paid) {
          paid.balance -= amount;
          paid.lastModifiedLedger = ledgerSequence;
        }
        touch(source, destination);
        return inner('payment', 'op_success');
      }
      case 'changeTrust': {
        const line = op.line as Asset;
        const key = assetKey(line);
        const limit = stroops(op.limit);
        const existing = source.trustlines.get(key);
        if (existing) {
          if (limit < existing.balance) return inner('changeTrust', 'op_invalid_limit');
          if (limit === 0n) {
            source.trustlines.delete(key);
            source.subentries -= 1;
          } else {
            existing.limit = limit;
            existing.lastModifiedLedger = ledgerSequence;
          }
          touch(source);
          return inner('changeTrust', 'op_success');
        }
        if (limit === 0n) return inner('changeTrust', 'op_trust_line_missing');
        const issuer = state.get(line.getIssuer());
        if (!issuer) return inner('changeTrust', 'op_no_issuer');
        if (source.balance < minimumBalance(source, 1)) return inner('changeTrust', 'op_low_reserve');
        source.trustlines.set(key, {
          code: line.getCode(),
          issuer: line.getIssuer(),
          balance: 0n,
          limit,
          authorized: !(issuer.flags & FLAGS.authRequired),
          lastModifiedLedger: ledgerSequence,
        });
        source.subentries += 1;
        touch(source);
        return inner('changeTrust', 'op_success');
      }
      case 'manageData': {
        const exists = source.data.has(op.name);
        if (op.value === undefined || op.value === null) {
          if (!exists) return inner('manageData', 'op_data_name_not_found');
          source.data.delete(op.name);
          source.subentries -= 1;
        } else {
          if (!exists) {
            if (source.balance < minimumBalance(source, 1)) return inner('manageData', 'op_low_reserve');
            source.subentries += 1;
          }
          source.data.set(op.name, Buffer.from(op.value).toString('base64'));
        }
        touch(source);
        return inner('manageData', 'op_success');
      }
      case 'setOptions': {
        const setFlags = Number(op.setFlags ?? 0);
        const clearFlags = Number(op.clearFlags ?? 0);
        if ((setFlags || clearFlags) && source.flags & FLAGS.authImmutable) return inner('setOptions', 'op_cant_change');
        const flags = (source.flags | setFlags) & ~clearFlags;
        if (flags & FLAGS.authClawback && !(flags & FLAGS.authRevocable)) return inner('setOptions', 'op_auth_revocable_required');
        if (op.signer && 'ed25519PublicKey' in op.signer) {
          const key = op.signer.ed25519PublicKey;
          const weight = Number(op.signer.weight ?? 0);
          if (weight === 0) {
            if (source.signers.delete(key)) source.subentries -= 1;
          } else if (source.signers.has(key)) {
            source.signers.set(key, weight);
          } else {
            if (source.signers.size >= MAX_SIGNERS) return inner('setOptions', 'op_too_many_signers');
            if (source.balance < minimumBalance(source, 1)) return inner('setOptions', 'op_low_reserve');
            source.signers.set(key, weight);
            source.subentries += 1;
          }
        }
        source.flags = flags;
        if (op.masterWeight !== undefined) source.masterWeight = Number(op.masterWeight);
        if (op.lowThreshold !== undefined) source.thresholds.low = Number(op.lowThreshold);
        if (op.medThreshold !== undefined) source.thresholds.med = Number(op.medThreshold);
        if (op.highThreshold !== undefined) source.thresholds.high = Number(op.highThreshold);
        if (op.homeDomain !== undefined) source.homeDomain = op.homeDomain;
        touch(source);
        return inner('setOptions', 'op_success');
      }
      default:
        return OP_NOT_SUPPORTED;
    }
  }

  /**
   * One operation's checks (stellar-core's OperationFrame::checkValid): supported, and well formed; before it goes
   * into a ledger, its source signed for at the threshold the operation needs (a source that does not exist yet by
   * its own key's signature); when it is applied, its source exists. Signatures are checked once, against the
   * ledger before the transaction: an operation that raises a threshold or locks a key binds only the
   * transactions after it. Null when it passes.
   */
  function checkOperation(op: Operation, txSource: string, state: Ledger, checker: SignatureChecker | null): Outcome | null {
    if (unsupported(op)) return OP_NOT_SUPPORTED;
    const sourceId = op.source ?? txSource;
    const source = state.get(sourceId);
    if (!checker) {
      if (!source) return OP_NO_ACCOUNT;
    } else if (source) {
      if (!checker.check(signersOf(source), neededThreshold(op, source))) return OP_BAD_AUTH;
    } else {
      if (!op.source) return OP_NO_ACCOUNT;
      if (!checker.check([{ key: sourceId, weight: 1 }], 0)) return OP_BAD_AUTH;
    }
    const code = malformed(op, sourceId);
    return code ? inner(op.type as OpType, code) : null;
  }

  // ---- submission ----

  type Answer = { status: number; body: unknown; successful: boolean; resultCodes?: ResultCodes };

  function refuse(tx: Transaction, envelopeXdr: string, code: string, fee: bigint): Answer {
    const codes = { transaction: code };
    return { status: 400, body: failedProblem(envelopeXdr, codes, resultXdr(fee, TX_RESULTS[code]!())), successful: false, resultCodes: codes };
  }

  function submit(envelopeXdr: string): Answer & { transaction: Transaction | null; hash: string } {
    let parsed: Transaction | FeeBumpTransaction;
    try {
      parsed = TransactionBuilder.fromXDR(envelopeXdr, passphrase);
    } catch {
      const body = {
        type: `${PROBLEMS}/transaction_malformed`,
        title: 'Transaction Malformed',
        status: 400,
        detail:
          'Horizon could not decode the transaction envelope in this request. A transaction should be an XDR TransactionEnvelope struct encoded using base64.  The envelope read from this request is echoed in the `extras.envelope_xdr` field of this response for your convenience.',
        extras: { envelope_xdr: envelopeXdr },
      };
      return { status: 400, body, successful: false, transaction: null, hash: '' };
    }
    const hash = parsed.hash().toString('hex');
    if (parsed instanceof FeeBumpTransaction) {
      const codes = { transaction: 'tx_not_supported' };
      const body = failedProblem(envelopeXdr, codes, resultXdr(0n, TX_RESULTS.tx_not_supported!()));
      return { status: 400, body, successful: false, resultCodes: codes, transaction: null, hash };
    }
    const tx = parsed;
    const known = history.get(hash);
    if (known) {
      const body = known.resultCodes ? failedProblem(envelopeXdr, known.resultCodes, known.record.result_xdr as string) : known.record;
      return { status: known.resultCodes ? 400 : 200, body, successful: !known.resultCodes, resultCodes: known.resultCodes, transaction: tx, hash };
    }
    const operations = tx.operations;
    const bid = BigInt(tx.fee);
    const fee = baseFee * BigInt(Math.max(operations.length, 1));
    const refused = (code: string) => ({ ...refuse(tx, envelopeXdr, code, bid), transaction: tx, hash });

    // The transaction's own checks, in stellar-core's order (TransactionFrame::commonValid).
    if (operations.length === 0) return refused('tx_missing_operation');
    if (
      tx.source.startsWith('M') ||
      tx.ledgerBounds ||
      tx.minAccountSequence ||
      tx.minAccountSequenceAge ||
      tx.minAccountSequenceLedgerGap ||
      tx.extraSigners?.length
    ) {
      return refused('tx_not_supported');
    }
    const now = BigInt(nowSeconds());
    if (tx.timeBounds) {
      if (BigInt(tx.timeBounds.minTime) > now) return refused('tx_too_early');
      if (tx.timeBounds.maxTime !== '0' && now > BigInt(tx.timeBounds.maxTime)) return refused('tx_too_late');
    }
    if (bid < fee) return refused('tx_insufficient_fee');
    const source = ledger.get(tx.source);
    if (!source) return refused('tx_no_source_account');
    if (BigInt(tx.sequence) !== source.sequence + 1n) return refused('tx_bad_seq');
    const validation = new SignatureChecker(tx.hash(), tx.signatures);
    if (!validation.check(signersOf(source), source.thresholds.low)) return refused('tx_bad_auth');
    if (available(source) < bid) return refused('tx_insufficient_balance');

    // Each operation's checks on the ledger as it is: any refusal keeps the transaction out of the ledger.
    const checked = operations.map((op) => checkOperation(op, tx.source, ledger, validation));
    if (checked.some(Boolean)) {
      const outcomes = checked.map((outcome, index) => outcome ?? inner(operations[index]!.type as OpType, 'op_success'));
      const codes = { transaction: 'tx_failed', operations: outcomes.map((outcome) => outcome.code) };
      const result = resultXdr(bid, xdr.TransactionResultResult.txFailed(outcomes.map((outcome) => outcome.result())));
      return { status: 400, body: failedProblem(envelopeXdr, codes, result), successful: false, resultCodes: codes, transaction: tx, hash };
    }
    if (!validation.allUsed()) return refused('tx_bad_auth_extra');

    // Into the next ledger: the fee and the sequence number are taken whatever the operations do.
    ledgerSequence += 1;
    const charged = copyLedger(ledger);
    const payer = charged.get(tx.source)!;
    payer.balance -= fee;
    payer.sequence = BigInt(tx.sequence);
    payer.sequenceLedger = ledgerSequence;
    payer.sequenceTime = Number(now);
    payer.lastModifiedLedger = ledgerSequence;

    let state = copyLedger(charged);
    let failed = false;
    const outcomes = operations.map((op) => {
      const refusedOp = checkOperation(op, tx.source, state, null);
      if (refusedOp) {
        failed = true;
        return refusedOp;
      }
      const attempt = copyLedger(state);
      const outcome = apply(op, op.source ?? tx.source, attempt);
      if (outcome.code !== 'op_success') failed = true;
      else if (!failed) state = attempt;
      return outcome;
    });
    ledger = failed ? charged : state;
    const results = outcomes.map((outcome) => outcome.result());
    const result = resultXdr(fee, failed ? xdr.TransactionResultResult.txFailed(results) : xdr.TransactionResultResult.txSuccess(results));
    const record = transactionRecord(tx, hash, envelopeXdr, result, fee, !failed, ledgerSequence);
    if (!failed) {
      history.set(hash, { record });
      return { status: 200, body: record, successful: true, transaction: tx, hash };
    }
    const codes = { transaction: 'tx_failed', operations: outcomes.map((outcome) => outcome.code) };
    history.set(hash, { record, resultCodes: codes });
    return { status: 400, body: failedProblem(envelopeXdr, codes, result), successful: false, resultCodes: codes, transaction: tx, hash };
  }

  // ---- the market ----

  const isUsdc = (type: string | null, code: string | null, issuer: string | null) =>
    (type === 'credit_alphanum4' || type === 'credit_alphanum12') && code === usdc.code && issuer === usdc.issuer;

  function priceJson(price: string) {
    let n = stroops(price);
    let d = STROOPS;
    const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
    const common = gcd(n, d);
    n /= common;
    d /= common;
    return { price_r: { n: Number(n), d: Number(d) }, price: amountOf(stroops(price)) };
  }

  function orderBook(query: URLSearchParams) {
    const sellingNative = query.get('selling_asset_type') === 'native';
    const buyingUsdc = isUsdc(query.get('buying_asset_type'), query.get('buying_asset_code'), query.get('buying_asset_issuer'));
    const market = sellingNative && buyingUsdc;
    const asset = (prefix: string) =>
      query.get(`${prefix}_asset_type`) === 'native'
        ? { asset_type: 'native' }
        : { asset_type: query.get(`${prefix}_asset_type`), asset_code: query.get(`${prefix}_asset_code`), asset_issuer: query.get(`${prefix}_asset_issuer`) };
    const limit = Number(query.get('limit') ?? 20);
    const levels = (offers: Offer[]) => offers.slice(0, limit).map((offer) => ({ ...priceJson(offer.price), amount: amountOf(stroops(offer.amount)) }));
    return {
      bids: market ? levels(bids) : [],
      asks: market ? levels(asks) : [],
      base: asset('selling'),
      counter: asset('buying'),
    };
  }

  function strictSendPaths(query: URLSearchParams) {
    const fromUsdc = isUsdc(query.get('source_asset_type'), query.get('source_asset_code'), query.get('source_asset_issuer'));
    const toNative = (query.get('destination_assets') ?? '').split(',').includes('native');
    const sent = stroops(query.get('source_amount') ?? '0');
    const records =
      fromUsdc && toNative
        ? pathRates.map((rate) => ({
            source_asset_type: usdc.code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12',
            source_asset_code: usdc.code,
            source_asset_issuer: usdc.issuer,
            source_amount: amountOf(sent),
            destination_asset_type: 'native',
            destination_amount: amountOf((sent * stroops(rate)) / STROOPS),
            path: [],
          }))
        : [];
    return { _links: { self: link(`/paths/strict-send`) }, _embedded: { records } };
  }

  // ---- routes ----

  function answer(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const { pathname, searchParams } = new URL(req.url ?? '/', url);
    requests.push({ method: req.method ?? 'GET', path: pathname, query: searchParams });
    if (stalls > 0) {
      stalls -= 1;
      stalled.push(res);
      return;
    }
    const failure = failures.shift();
    if (failure !== undefined) {
      const titles: Record<number, string> = {
        500: 'Internal Server Error',
        502: 'Bad Gateway',
        503: 'Service Unavailable',
        504: 'Timeout',
        429: 'Rate Limit Exceeded',
      };
      return send(res, failure, {
        type: `${PROBLEMS}/server_error`,
        title: titles[failure] ?? 'Error',
        status: failure,
        detail: 'The stand-in was told to fail.',
      });
    }
    const account = /^\/accounts\/([^/]+)$/.exec(pathname);
    const transaction = /^\/transactions\/([^/]+)$/.exec(pathname);
    if (req.method === 'GET' && pathname === '/') return send(res, 200, root());
    if (req.method === 'GET' && account) {
      const id = decodeURIComponent(account[1]!);
      if (!StrKey.isValidEd25519PublicKey(id))
        return send(res, 400, badRequest('account_id', 'Account ID must start with `G` and contain 56 alphanum characters'));
      const found = ledger.get(id);
      return found ? send(res, 200, accountJson(found)) : send(res, 404, notFound());
    }
    if (req.method === 'POST' && pathname === '/transactions') {
      const envelopeXdr = new URLSearchParams(body).get('tx');
      if (!envelopeXdr) return send(res, 400, badRequest('tx', 'Transaction is missing'));
      const outcome = submit(envelopeXdr);
      submitted.push({
        hash: outcome.hash,
        envelopeXdr,
        transaction: outcome.transaction,
        status: outcome.status,
        successful: outcome.successful,
        ...(outcome.resultCodes && { resultCodes: outcome.resultCodes }),
      });
      return send(res, outcome.status, outcome.body);
    }
    if (req.method === 'GET' && transaction) {
      const known = history.get(transaction[1]!);
      return known ? send(res, 200, known.record) : send(res, 404, notFound());
    }
    if (req.method === 'GET' && pathname === '/order_book') return send(res, 200, orderBook(searchParams));
    if (req.method === 'GET' && pathname === '/paths/strict-send') return send(res, 200, strictSendPaths(searchParams));
    if (req.method === 'GET' && pathname === '/fee_stats') return send(res, 200, feeStats());
    send(res, 404, notFound());
  }

  function root() {
    return {
      _links: { account: link('/accounts/{account_id}', true), transactions: link('/transactions{?cursor,limit,order}', true), fee_stats: link('/fee_stats') },
      horizon_version: 'knack-standin',
      core_version: 'stellar-core (stand-in)',
      ingest_latest_ledger: ledgerSequence,
      history_latest_ledger: ledgerSequence,
      history_latest_ledger_closed_at: closedAt(),
      history_elder_ledger: 2,
      core_latest_ledger: ledgerSequence,
      network_passphrase: passphrase,
      current_protocol_version: 22,
      supported_protocol_version: 22,
      core_supported_protocol_version: 22,
    };
  }

  function feeStats() {
    const fee = String(baseFee);
    const spread = Object.fromEntries(
      ['max', 'min', 'mode', 'p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p90', 'p95', 'p99'].map((key) => [key, fee]),
    );
    return {
      last_ledger: String(ledgerSequence),
      ...(announceBaseFee && { last_ledger_base_fee: fee }),
      ledger_capacity_usage: '0.01',
      fee_charged: spread,
      max_fee: spread,
    };
  }

  function listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  const stellarConfig: StellarConfig = {
    network: {
      name: passphrase === Networks.TESTNET ? 'testnet' : passphrase === Networks.PUBLIC ? 'public' : 'custom',
      passphrase,
      horizonUrl: url,
    },
    usdcAsset: usdc,
  };

  return {
    url,
    passphrase,
    /** Knack's `stellar` configuration pointed at this stand-in. */
    stellarConfig,
    /** Every transaction submitted, in order, with the answer it got. */
    submitted,
    /** Every request, in order. */
    requests,
    /** Creates the account with this many XLM (as Friendbot does), or adds them to it. */
    fund(address: string, xlm: string) {
      if (!StrKey.isValidEd25519PublicKey(address)) throw new Error(`Not an account address: ${address}`);
      const existing = ledger.get(address);
      if (existing) existing.balance += stroops(xlm);
      else ledger.set(address, newAccount(address, stroops(xlm)));
    },
    /** The account as `GET /accounts/{id}` answers it, or null when it does not exist. */
    account(address: string) {
      const found = ledger.get(address);
      return found ? accountJson(found) : null;
    },
    /** Stroops of an account's XLM, or of an asset it holds (`CODE:ISSUER`); null when it has no such balance. */
    balance(address: string, asset: 'native' | string = 'native'): bigint | null {
      const found = ledger.get(address);
      if (!found) return null;
      return asset === 'native' ? found.balance : (found.trustlines.get(asset)?.balance ?? null);
    },
    /** The XLM/USDC order book: asks sell XLM, bids buy it; prices in USDC per XLM, amounts in XLM, best first. */
    setOrderBook(book: { asks?: Offer[]; bids?: Offer[] }) {
      asks = book.asks ?? [];
      bids = book.bids ?? [];
    },
    /** The paths a strict send of USDC to XLM finds: for each, how many XLM one USDC brings. */
    setStrictSendPaths(xlmPerUsdc: string[]) {
      pathRates = xlmPerUsdc;
    },
    /** The base fee per operation in stroops; `announce: false` leaves it out of /fee_stats. */
    setBaseFee(fee: number, { announce = true } = {}) {
      baseFee = BigInt(fee);
      announceBaseFee = announce;
    },
    /** Moves the stand-in's clock (ledger close time) forward. */
    advanceClock(seconds: number) {
      clockOffsetSeconds += seconds;
    },
    /** The stand-in's clock, in Unix seconds. */
    now: nowSeconds,
    /** The next requests (of any kind) answer this HTTP status with Horizon's problem JSON. */
    failNext(status: number, times = 1) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    /** The next requests are never answered, as a Horizon that hangs (until stop). */
    stallNext(times = 1) {
      stalls += times;
    },
    /** Stops listening and drops every connection: Horizon cannot be reached. */
    async stop() {
      for (const res of stalled.splice(0)) res.destroy();
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    /** Listens again on the same address, with the same ledger. */
    restart: listen,
  };
}

export type HorizonStandIn = Awaited<ReturnType<typeof startHorizonStandIn>>;
