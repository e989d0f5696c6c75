/**
 * The Stellar calls: the XLM rate of a US dollar, and whether an account can mint (it exists and holds at least
 * 3 XLM). Both read Horizon through the one driver; when it cannot be reached the answer is 503 with a plain
 * message, and the cause goes to the log. Nothing is made up in its place.
 */
import type { AuthContext } from '../../lib/auth-context';
import { AppError, badRequest } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { STROOPS_PER_XLM, stroopsOf } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import { consumeLimit } from '../../lib/rate-limit';
import { isStellarAccountId, NOT_A_STELLAR_ADDRESS } from '../../lib/stellar-address';
import { HorizonUnavailableError, NoUsdRateError, type HorizonDriver, type HorizonRefusedError } from '../../integrations/horizon';

export const STELLAR_MESSAGES = {
  unavailable: 'The Stellar network cannot be reached right now. Please try again in a minute.',
  noRate: 'No XLM rate for the US dollar can be read from the Stellar network right now. Please try again in a minute.',
  invalidAddress: NOT_A_STELLAR_ADDRESS,
  insufficientBalance: 'Insufficient account balance',
  noAccount: 'This Stellar account does not exist yet. Fund it with at least 3 XLM.',
  tooManyChecks: 'Too many account checks. Please wait a minute and try again.',
} as const;

/** What an account must hold to mint: 3 XLM, in stroops. */
export const MINIMUM_BALANCE_STROOPS = 3n * STROOPS_PER_XLM;

/** Account checks per member: each asks Horizon, so a person checking their wallets, not a script walking addresses. */
export const CHECK_ACCOUNT_LIMIT = { max: 30, windowMs: 60_000 };

/**
 * Horizon's failures as the API answers them: unreachable or without a rate, 503 with a plain message (the cause
 * logged for the operator); anything else unchanged. For every module that reads Horizon.
 */
export function answerHorizonFailure(err: unknown, logger: Logger): Error {
  if (err instanceof HorizonUnavailableError) {
    logger.warn({ err }, 'Horizon cannot be reached');
    return new AppError(503, 'unavailable', STELLAR_MESSAGES.unavailable);
  }
  if (err instanceof NoUsdRateError) {
    logger.warn({ err }, 'no XLM rate for the US dollar');
    return new AppError(503, 'unavailable', STELLAR_MESSAGES.noRate);
  }
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * The network's refusal of a transaction as a 400 in the member's words: `prefix`, then the words `words` gives the
 * first result code it knows (the transaction's, else an operation's), else the codes themselves. For every module
 * that submits a transaction; each names the codes in its own terms.
 */
export function refusalInWords(err: HorizonRefusedError, prefix: string, words: Record<string, string>): AppError {
  const codes = [err.resultCodes.transaction, ...err.resultCodes.operations.filter((code) => code !== 'op_success')];
  const known = codes.map((code) => words[code]).find(Boolean);
  const message = `${prefix}${known ?? `it could not be applied (${codes.join(', ')})`}.`.replace(/\.\.$/, '.');
  return badRequest(message, [{ path: 'transaction', message }]);
}

export function createStellarService({ horizon, logger }: { horizon: HorizonDriver; logger: Logger }) {
  const failure = (err: unknown) => Promise.reject(answerHorizonFailure(err, logger));

  /** Whether the account can mint: it exists and holds at least 3 XLM (the NFT module asks it too, under its own limit). */
  async function accountStanding(address: string): Promise<Schemas['StellarAccountCheck']> {
    const account = await horizon.loadAccount(address).catch(failure);
    if (!account) return { passed: false, errorMessage: STELLAR_MESSAGES.noAccount };
    const native = account.balances.find((balance) => balance.asset_type === 'native');
    const held = native ? stroopsOf(native.balance) : 0n;
    return held >= MINIMUM_BALANCE_STROOPS ? { passed: true, errorMessage: '' } : { passed: false, errorMessage: STELLAR_MESSAGES.insufficientBalance };
  }

  return {
    accountStanding,

    async usdRate(): Promise<Schemas['StellarUsdRate']> {
      const rate = await horizon.usdRate().catch(failure);
      return { xlmPerUsd: rate.xlmPerUsd, source: rate.source, at: rate.at.toISOString() };
    },

    async checkAccount(caller: AuthContext, address: string, now = new Date()): Promise<Schemas['StellarAccountCheck']> {
      await consumeLimit(`stellar-check:${caller.userId}`, CHECK_ACCOUNT_LIMIT, STELLAR_MESSAGES.tooManyChecks, now);
      if (!isStellarAccountId(address)) throw badRequest(STELLAR_MESSAGES.invalidAddress, [{ path: 'address', message: STELLAR_MESSAGES.invalidAddress }]);
      return accountStanding(address);
    },
  };
}

export type StellarService = ReturnType<typeof createStellarService>;
