/**
 * PayPal Payouts through its REST API (no SDK): an OAuth2 client-credentials token
 * (`POST /v1/oauth2/token`, kept until shortly before it expires), then one batch per payout
 * (`POST /v1/payments/payouts`) with `sender_batch_id` = payoutId and `PayPal-Request-Id` = payoutId, so that
 * PayPal itself refuses to pay the same payout twice (a retried request answers the first batch).
 */
import axios, { type AxiosError } from 'axios';
import { PROVIDER_TIMEOUT_MS, withProviderRetries } from '../../lib/provider-retry';
import { centsString, PayoutProviderError, type PayoutProvider } from './payouts.types';

export interface PayPalOptions {
  clientId: string;
  clientSecret: string;
  /** https://api-m.paypal.com (live), https://api-m.sandbox.paypal.com, or a stand-in in tests. */
  apiUrl: string;
  /** How long one attempt waits for PayPal's answer; default PROVIDER_TIMEOUT_MS. */
  timeoutMs?: number;
}

interface TokenAnswer {
  access_token: string;
  expires_in: number;
}

interface PayoutAnswer {
  batch_header?: { payout_batch_id?: string; batch_status?: string };
}

const TOKEN_MARGIN_MS = 60_000;

function providerError(action: string, err: unknown): PayoutProviderError {
  const { response, message } = err as AxiosError<{ name?: string; message?: string; error_description?: string }>;
  const detail = response?.data?.message ?? response?.data?.error_description ?? response?.data?.name ?? message;
  return new PayoutProviderError(`PayPal ${action} failed${response ? ` (${response.status})` : ''}: ${detail}`, response?.status);
}

export function paypalPayoutProvider({ clientId, clientSecret, apiUrl, timeoutMs = PROVIDER_TIMEOUT_MS }: PayPalOptions): PayoutProvider {
  const http = axios.create({ baseURL: apiUrl, timeout: timeoutMs });
  let token: { value: string; expiresAt: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    try {
      const { data } = await withProviderRetries(() =>
        http.post<TokenAnswer>('/v1/oauth2/token', 'grant_type=client_credentials', {
          auth: { username: clientId, password: clientSecret },
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        }),
      );
      token = { value: data.access_token, expiresAt: Date.now() + data.expires_in * 1000 - TOKEN_MARGIN_MS };
      return token.value;
    } catch (err) {
      throw providerError('sign-in', err);
    }
  }

  return {
    kind: 'paypal',
    async send({ payoutId, email, amountMicros, note }) {
      const value = centsString(amountMicros);
      const body = {
        sender_batch_header: { sender_batch_id: payoutId, email_subject: 'You have a payout from Knack', email_message: note },
        items: [{ recipient_type: 'EMAIL', amount: { value, currency: 'USD' }, receiver: email, note, sender_item_id: payoutId }],
      };
      const bearer = await accessToken();
      try {
        // The same PayPal-Request-Id on every attempt: a batch made by an attempt whose answer was lost is answered again.
        const { data } = await withProviderRetries(() =>
          http.post<PayoutAnswer>('/v1/payments/payouts', body, {
            headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json', 'PayPal-Request-Id': payoutId },
          }),
        );
        const ref = data.batch_header?.payout_batch_id;
        if (!ref) throw new PayoutProviderError('PayPal answered a payout without a payout_batch_id');
        return { providerRef: ref };
      } catch (err) {
        if (err instanceof PayoutProviderError) throw err;
        // An expired or revoked token: the next attempt signs in again.
        if ((err as AxiosError).response?.status === 401) token = undefined;
        throw providerError('payout', err);
      }
    },
  };
}
