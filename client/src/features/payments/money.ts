/** Dollars as the screens show them: always 2 decimals (spec §9), from the API's USD numbers. */
export function formatUsd(usd: number): string {
  const sign = usd < 0 ? '-' : '';
  return `${sign}$${Math.abs(usd).toFixed(2)}`;
}
