import type { Response } from 'express';
import type { PayerCookie } from './payments.types';

/**
 * Hands the payer's browser the proof a checkout page asks for (the sandbox's): an hour to pay, httpOnly and
 * same-site only, as the refresh cookie, and sent back to that checkout page alone.
 */
export function setPayerCookie(res: Response, cookie: PayerCookie | undefined, secure: boolean): void {
  if (!cookie) return;
  res.cookie(cookie.name, cookie.value, { path: cookie.path, httpOnly: true, sameSite: 'strict', secure, maxAge: 3_600_000 });
}
