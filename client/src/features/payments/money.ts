/**
 * Dollars as the screens show them: always 2 decimals, cut to the cent as the server cuts what leaves
 * a balance (a cash-out of $12.345 pays $12.34), so a figure never promises a cent that cannot be paid. The
 * API's USD numbers are read back to whole micro-dollars first, so that float noise (0.135 stored as
 * 0.13499…) does not decide the cent.
 */
export function formatUsd(usd: number): string {
  const micros = Math.round(Math.abs(usd) * 1_000_000);
  const cents = Math.floor(micros / 10_000);
  const sign = usd < 0 && cents > 0 ? '-' : '';
  return `${sign}$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
