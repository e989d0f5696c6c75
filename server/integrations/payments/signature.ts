/**
 * The webhook signature scheme Stripe uses, and our sandbox with it: a header `t=<unix seconds>,v1=<hex>`
 * where v1 is HMAC-SHA256 of `${t}.${rawBody}` with the endpoint's secret. Checked over the exact bytes
 * received, with a tolerance on the timestamp (replays of old deliveries fail) and a timing-safe compare.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignatureError } from './payments.types';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, timestamp: number, rawBody: Buffer | string) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');

/** The header value a provider sends with `rawBody`. */
export function signatureHeader(secret: string, rawBody: Buffer | string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody)}`;
}

/** Throws SignatureError unless `header` signs `rawBody` with `secret` within the tolerance. */
export function verifySignature(header: string | string[] | undefined, rawBody: Buffer, secret: string, now = Date.now()): void {
  if (typeof header !== 'string' || !header) throw new SignatureError('The webhook has no signature.');
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts.filter(([key, value]) => key === 'v1' && value).map(([, value]) => value!);
  if (!Number.isInteger(timestamp) || signatures.length === 0) throw new SignatureError('The webhook signature is malformed.');
  if (Math.abs(now / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) throw new SignatureError('The webhook signature is too old.');
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new SignatureError('The webhook signature does not match.');
}

/** The JSON of a verified body; a body that is not JSON is refused like a bad signature (nothing applied). */
export function parseJson<T>(rawBody: Buffer): T {
  try {
    return JSON.parse(rawBody.toString('utf8')) as T;
  } catch {
    throw new SignatureError('The webhook body is not JSON.');
  }
}
