/** Stellar account addresses as Knack shows them. */

/** An address as the app shows it: its first 4 and last 4 characters (`GABC…WXYZ`). */
export function shortAddress(address: string): string {
  return `${address.slice(0, 4)}…${address.slice(-4)}`;
}
