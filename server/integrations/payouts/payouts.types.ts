/** The payout provider interface: money sent out to a member's account (PayPal email). */

export interface PayoutRequest {
  /** The ledger key of the payout (`payout:{userId}:{yyyy-mm}` or `cash-out:{requestId}`), also the provider's idempotency key. */
  payoutId: string;
  /** The receiver's PayPal email. */
  email: string;
  /** What is sent, after the provider fee: whole cents, in micro-dollars. */
  amountMicros: number;
  /** Shown to the receiver. */
  note: string;
}

export interface PayoutProvider {
  kind: 'sandbox' | 'paypal';
  /** Sends one payout; sending the same payoutId again answers the first payout's ref and sends nothing more. */
  send(request: PayoutRequest): Promise<{ providerRef: string }>;
}

/** The provider refused or could not be reached; the payout stays to be sent and is retried. */
export class PayoutProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PayoutProviderError';
  }
}

const MICROS_PER_CENT = 10_000;

/** "12.34" from 12 340 000 micro-dollars; refuses amounts that are not whole cents (providers send cents). */
export function centsString(amountMicros: number): string {
  if (!Number.isSafeInteger(amountMicros) || amountMicros <= 0 || amountMicros % MICROS_PER_CENT !== 0) {
    throw new RangeError(`A payout is a positive whole number of cents; got ${amountMicros} micro-dollars`);
  }
  const cents = amountMicros / MICROS_PER_CENT;
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
