/** The Horizon driver's interface: Knack's one way to Stellar's network (accounts, transactions, fees, the XLM rate). */
import type { FeeBumpTransaction, Horizon, Transaction } from '@stellar/stellar-sdk';
import type { StellarNetwork } from '../../config';

export type { StellarAsset, StellarConfig, StellarNetwork } from '../../config';

/** Horizon cannot be reached, answered 5xx or 429, or did not answer in time: the caller answers 503, nothing is faked. */
export class HorizonUnavailableError extends Error {
  override name = 'HorizonUnavailableError';
}

/** Horizon's `extras.result_codes`: the transaction's code and, when it is tx_failed, each operation's. */
export interface HorizonResultCodes {
  transaction: string;
  operations: string[];
}

/** The network refused a transaction (bad signature, sequence, fee, balance...): nothing of it was applied. */
export class HorizonRefusedError extends Error {
  override name = 'HorizonRefusedError';

  constructor(
    message: string,
    readonly resultCodes: HorizonResultCodes,
    /** Horizon's `extras.result_xdr`, when it sent one. */
    readonly resultXdr?: string,
  ) {
    super(message);
  }
}

/** Horizon answered, but no market gives a rate for one dollar (an empty XLM/USDC book and no path), or no dollar asset is configured. */
export class NoUsdRateError extends Error {
  override name = 'NoUsdRateError';
}

export interface UsdRate {
  /** How many XLM one US dollar (one USDC) buys. */
  xlmPerUsd: number;
  /** Read from the XLM/USDC order book, or from strict-send paths when the book cannot fill one dollar. */
  source: 'order_book' | 'paths';
  /** When it was read from Horizon. */
  at: Date;
}

export interface HorizonDriver {
  readonly network: StellarNetwork;
  /** The account as Horizon has it, or null when it does not exist (404). */
  loadAccount(address: string): Promise<Horizon.AccountResponse | null>;
  /**
   * Submits a signed transaction; Horizon's refusal becomes a HorizonRefusedError carrying its result codes
   * (tx_bad_auth, op_underfunded, ...). A HorizonUnavailableError here may come after the network took the
   * transaction (Horizon's own 504): look it up by hash before building another. A payment to an account that
   * asks for a memo (SEP-29) without one is refused before sending, with the SDK's AccountRequiresMemoError.
   */
  submit(transaction: Transaction | FeeBumpTransaction): Promise<{ hash: string; ledger: number }>;
  /**
   * A transaction the network has in a ledger, by its hash (hex): whether it succeeded and in which ledger; null when
   * Horizon has none by that hash (never submitted, refused before a ledger, or not yet in one). `envelopeXdr` is the
   * transaction as the network took it (base64 XDR), to check what it did.
   */
  findTransaction(hash: string): Promise<{ hash: string; ledger: number; successful: boolean; envelopeXdr: string } | null>;
  /** The network's base fee in stroops (fee_stats / latest ledger), or the fallback 200 when Horizon does not say. */
  baseFee(): Promise<number>;
  /** How many XLM one US dollar buys, from the XLM/USDC order book or strict-send paths; cached for a minute (server/lib/ttl-cache.ts). */
  xlmPerUsd(): Promise<number>;
  /** The same rate with where and when it was read; the same cached reading. */
  usdRate(): Promise<UsdRate>;
  /**
   * A rate to show, which never keeps a page waiting on a Horizon that fails: the last reading while it is under
   * RATE_SHOWN_MS old (read again in the background once past the minute); else null while a failure is under
   * RATE_FAILURE_MS old (and after that, null while a new reading is tried in the background). Only the very first
   * reading of a process waits for Horizon. Not for a check that must hold at the current rate.
   */
  shownUsdRate(): Promise<UsdRate | null>;
}
