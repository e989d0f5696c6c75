/** Payouts: the provider interface and its drivers (sandbox files by default, PayPal Payouts when configured). */
import type { Config } from '../../config';
import { paypalPayoutProvider } from './paypal.driver';
import { sandboxPayoutProvider } from './sandbox.driver';
import type { PayoutProvider } from './payouts.types';

export * from './payouts.types';
export { paypalPayoutProvider, type PayPalOptions } from './paypal.driver';
export { sandboxPayoutProvider, sandboxPayoutFile, type SandboxPayoutRecord } from './sandbox.driver';

/** PayPal Payouts when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are set, else the sandbox driver. */
export function createPayoutProvider(config: Pick<Config, 'payouts'>): PayoutProvider {
  const { payouts } = config;
  return payouts.paypal ? paypalPayoutProvider(payouts.paypal) : sandboxPayoutProvider(payouts.sandboxDir);
}
