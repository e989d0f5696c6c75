/** Payments: the provider interface and its drivers (sandbox by default, Stripe Checkout when configured). */
import type { Config } from '../../config';
import { sandboxProvider, type SandboxProvider } from './sandbox.driver';
import { stripeProvider } from './stripe.driver';
import type { PaymentProvider } from './payments.types';

export * from './payments.types';
export { nextMonth, sandboxProvider, SANDBOX_PAYER_COOKIE, SANDBOX_SIGNATURE_HEADER, type SandboxProvider, type SignedDelivery } from './sandbox.driver';
export { sandboxCheckoutRouter } from './sandbox.routes';
export { SandboxRefundModel, type SandboxRefundDoc } from './sandbox.model';
export { setPayerCookie } from './payer-cookie';
export { stripeProvider, type StripeOptions } from './stripe.driver';
export { signatureHeader, verifySignature, SIGNATURE_TOLERANCE_SECONDS } from './signature';

/** The configured provider: Stripe when PAYMENTS_PROVIDER (or STRIPE_SECRET_KEY) says so, else the sandbox. */
export function createPaymentProvider(config: Pick<Config, 'payments' | 'publicUrl'>): PaymentProvider {
  const { payments } = config;
  if (payments.provider === 'stripe' && payments.stripe) return stripeProvider(payments.stripe);
  return sandboxProvider({ publicUrl: config.publicUrl, webhookSecret: payments.webhookSecret, payerKey: payments.sandboxPayerKey });
}

export const isSandbox = (provider: PaymentProvider): provider is SandboxProvider => provider.kind === 'sandbox';
