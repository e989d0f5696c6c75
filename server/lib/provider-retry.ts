/**
 * Calls to a provider's API (payments, payouts) that a passing failure must not lose or repeat. Each call has a
 * timeout; one that times out, loses its connection or meets the provider's own outage (5xx, 429, or Stripe's 409
 * "a request with this key is in progress") is sent again a bounded number of times, with a growing pause, and
 * always with the same idempotency key: a first attempt whose answer never came may well have been carried out,
 * and the key makes the provider answer the retry with that same object instead of making a second one.
 */
import axios from 'axios';

/** How long one attempt waits for the provider's answer. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** Attempts in all, the first included. */
export const PROVIDER_ATTEMPTS = 3;
/** The pause before the second attempt; it doubles before each next one. */
export const PROVIDER_BACKOFF_MS = 250;

export interface RetryOptions {
  attempts?: number;
  backoffMs?: number;
}

/** Whether a failed call may be sent again: no answer came, or the provider said it could not do it now. */
export function isPassingProviderFailure(err: unknown): boolean {
  if (!axios.isAxiosError(err)) return false;
  const status = err.response?.status;
  if (status === undefined) return true;
  return status >= 500 || status === 429 || status === 409;
}

/** Runs `call` until it succeeds, fails for good, or has run `attempts` times; the last failure is thrown. */
export async function withProviderRetries<T>(
  call: () => Promise<T>,
  { attempts = PROVIDER_ATTEMPTS, backoffMs = PROVIDER_BACKOFF_MS }: RetryOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= attempts || !isPassingProviderFailure(err)) throw err;
      // A little randomness, so that many calls failed by one outage do not all come back at the same moment.
      const pause = backoffMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
