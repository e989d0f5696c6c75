/**
 * The Horizon driver, built on the Stellar SDK's `Horizon.Server`, so it speaks Horizon's real HTTP API to whatever
 * HORIZON_URL names: SDF's testnet Horizon by default, the public network's, one of your own, or the tests'
 * stand-in (tests/helpers/horizon-standin.ts). Plain http is allowed only for a Horizon on this machine
 * (server/config.ts refuses any other).
 *
 * What Horizon says is passed on as it is: an account it does not have is null, a refused transaction is a
 * HorizonRefusedError with its result codes, and a Horizon that cannot be reached, answers 5xx or 429, or takes
 * longer than the timeout is a HorizonUnavailableError. Nothing is ever made up in its place.
 *
 * The SDK is loaded at the first call rather than at start: it costs a process about 0.4 s of CPU, which every
 * start, job run and test file would pay otherwise.
 */
import type * as StellarSdk from '@stellar/stellar-sdk';
import type { Config } from '../../config';
import { formatStroops, stroopsOf, STROOPS_PER_XLM } from '../../lib/money';
import { createTtlCache } from '../../lib/ttl-cache';
import { HorizonRefusedError, HorizonUnavailableError, NoUsdRateError, type HorizonDriver, type UsdRate } from './horizon.types';

type Sdk = typeof StellarSdk;

let loading: Promise<Sdk> | undefined;

/** The Stellar SDK, loaded once, on first use. */
export function loadStellarSdk(): Promise<Sdk> {
  return (loading ??= import('@stellar/stellar-sdk'));
}

/** The base fee per operation, in stroops, when Horizon's fee stats do not give one. */
export const FALLBACK_BASE_FEE = 200;
/** How long a rate read from Horizon is answered again. */
export const RATE_TTL_MS = 60_000;
/**
 * How old a reading may be and still be shown (a piece's bids list shows the reserve in XLM at it): market rates
 * move little in ten minutes, and a page must not wait on Horizon. Placing a bid still checks a fresh reading.
 */
export const RATE_SHOWN_MS = 10 * 60_000;
/** How long a failure to read the rate is remembered: meanwhile a page that shows it answers without one at once. */
export const RATE_FAILURE_MS = 30_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** One USDC in its smallest units: Stellar assets have 7 decimals, as XLM has. */
const ONE_DOLLAR = STROOPS_PER_XLM;

export interface HorizonOptions {
  /** How long one request to Horizon may take (10 s); a transaction's submission waits up to the SDK's 60 s. */
  timeoutMs?: number;
}

interface HttpFailure {
  response?: { status?: unknown; data?: unknown };
}

interface HorizonProblem {
  type?: string;
  extras?: { result_codes?: { transaction?: string; operations?: string[] }; result_xdr?: string };
}

const statusOf = (err: unknown) => {
  const status = (err as HttpFailure | null)?.response?.status;
  return typeof status === 'number' ? status : undefined;
};

/** XLM bought with one dollar by taking the asks cheapest first (prices in USDC per XLM); null when they cannot fill it. */
function xlmForOneDollar(asks: StellarSdk.Horizon.ServerApi.OrderbookRecord['asks']): bigint | null {
  let dollarLeft = ONE_DOLLAR;
  let xlm = 0n;
  for (const ask of asks) {
    const n = BigInt(ask.price_r.n);
    const d = BigInt(ask.price_r.d);
    if (n <= 0n || d <= 0n) continue;
    const offered = stroopsOf(ask.amount);
    const cost = (offered * n) / d;
    if (cost >= dollarLeft) return xlm + (dollarLeft * d) / n;
    xlm += offered;
    dollarLeft -= cost;
  }
  return null;
}

export function createHorizon(config: Pick<Config, 'stellar'>, { timeoutMs = REQUEST_TIMEOUT_MS }: HorizonOptions = {}): HorizonDriver {
  const { network, usdcAsset } = config.stellar;
  const rates = createTtlCache<UsdRate>(RATE_TTL_MS, { maxEntries: 1 });
  let server: Promise<StellarSdk.Horizon.Server> | undefined;

  const horizon = () =>
    (server ??= loadStellarSdk().then(({ Horizon }) => {
      const created = new Horizon.Server(network.horizonUrl, { allowHttp: new URL(network.horizonUrl).protocol === 'http:' });
      created.httpClient.defaults.timeout = timeoutMs;
      return created;
    }));

  /** A failure to reach Horizon (no answer, 5xx, 429, a timeout) as HorizonUnavailableError; anything else as it is. */
  function unreachable(err: unknown, what: string): Error {
    const status = statusOf(err);
    if (status === undefined || status >= 500 || status === 429 || status === 408) {
      const detail = status === undefined ? (err as Error)?.message : `HTTP ${status}`;
      return new HorizonUnavailableError(`Horizon at ${network.horizonUrl} did not answer ${what}: ${detail}`, { cause: err });
    }
    return err instanceof Error ? err : new Error(String(err));
  }

  async function readUsdRate(): Promise<UsdRate> {
    if (!usdcAsset) throw new NoUsdRateError(`No dollar asset is configured for the ${network.name} network: set STELLAR_USDC_ASSET`);
    const { Asset } = await loadStellarSdk();
    const connection = await horizon();
    const usdc = new Asset(usdcAsset.code, usdcAsset.issuer);
    const book = await connection
      .orderbook(Asset.native(), usdc)
      .call()
      .catch((err: unknown) => Promise.reject(unreachable(err, 'the XLM/USDC order book')));
    const fromBook = xlmForOneDollar(book.asks);
    if (fromBook !== null && fromBook > 0n) return { xlmPerUsd: Number(formatStroops(fromBook)), source: 'order_book', at: new Date() };
    const paths = await connection
      .strictSendPaths(usdc, formatStroops(ONE_DOLLAR), [Asset.native()])
      .call()
      .catch((err: unknown) => Promise.reject(unreachable(err, 'the USDC to XLM paths')));
    const best = paths.records.map((path) => stroopsOf(path.destination_amount)).reduce((a, b) => (b > a ? b : a), 0n);
    if (best === 0n) throw new NoUsdRateError(`Neither the XLM/${usdcAsset.code} order book nor any path gives XLM for one ${usdcAsset.code}`);
    return { xlmPerUsd: Number(formatStroops(best)), source: 'paths', at: new Date() };
  }

  // The last reading and the last failure, for what pages show (shownUsdRate), kept past the fresh cache's minute.
  let lastReading: UsdRate | null = null;
  let failedAt: number | null = null;
  const usdRate = () =>
    rates.get('usd', () =>
      readUsdRate().then(
        (reading) => {
          lastReading = reading;
          failedAt = null;
          return reading;
        },
        (err: unknown) => {
          failedAt = Date.now();
          throw err;
        },
      ),
    );
  const readInBackground = () => void usdRate().catch(() => undefined);

  return {
    network,

    async loadAccount(address) {
      const [{ NotFoundError }, connection] = await Promise.all([loadStellarSdk(), horizon()]);
      try {
        return await connection.loadAccount(address);
      } catch (err) {
        if (err instanceof NotFoundError) return null;
        throw unreachable(err, `the account ${address}`);
      }
    },

    async submit(transaction) {
      const [{ AccountRequiresMemoError }, connection] = await Promise.all([loadStellarSdk(), horizon()]);
      try {
        const answer = await connection.submitTransaction(transaction);
        return { hash: answer.hash, ledger: answer.ledger };
      } catch (err) {
        if (err instanceof AccountRequiresMemoError) throw err;
        const problem = (err as HttpFailure).response?.data as HorizonProblem | undefined;
        const codes = problem?.extras?.result_codes;
        if (statusOf(err) === 400 && codes?.transaction) {
          const operations = codes.operations ?? [];
          const detail = operations.length ? `${codes.transaction} (${operations.join(', ')})` : codes.transaction;
          throw new HorizonRefusedError(
            `Horizon refused the transaction: ${detail}`,
            { transaction: codes.transaction, operations },
            problem?.extras?.result_xdr,
          );
        }
        if (statusOf(err) === 400 && problem?.type?.endsWith('/transaction_malformed')) {
          throw new HorizonRefusedError('Horizon could not read the transaction envelope', { transaction: 'tx_malformed', operations: [] });
        }
        throw unreachable(err, 'the transaction');
      }
    },

    async findTransaction(hash) {
      const [{ NotFoundError }, connection] = await Promise.all([loadStellarSdk(), horizon()]);
      try {
        const record = await connection.transactions().transaction(hash).call();
        return { hash: record.hash, ledger: record.ledger_attr, successful: record.successful, envelopeXdr: record.envelope_xdr };
      } catch (err) {
        if (err instanceof NotFoundError) return null;
        throw unreachable(err, `the transaction ${hash}`);
      }
    },

    async baseFee() {
      const connection = await horizon();
      const stats = await connection.feeStats().catch((err: unknown) => Promise.reject(unreachable(err, 'the fee stats')));
      const fee = Number(stats.last_ledger_base_fee);
      return Number.isSafeInteger(fee) && fee > 0 ? fee : FALLBACK_BASE_FEE;
    },

    async xlmPerUsd() {
      return (await usdRate()).xlmPerUsd;
    },

    usdRate,

    async shownUsdRate() {
      const now = Date.now();
      const failedLately = failedAt !== null && now - failedAt < RATE_FAILURE_MS;
      if (lastReading && now - lastReading.at.getTime() < RATE_SHOWN_MS) {
        if (now - lastReading.at.getTime() >= RATE_TTL_MS && !failedLately) readInBackground();
        return lastReading;
      }
      if (failedAt !== null) {
        if (!failedLately) readInBackground();
        return null;
      }
      return usdRate().catch(() => null);
    },
  };
}
