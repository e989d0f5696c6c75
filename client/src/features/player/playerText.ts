/**
 * The bottom player bar's owner name with underscores as spaces, and a trailing dot-suffix longer than 14
 * characters dropped (names made from an address or a wallet id: 'ana_lee.0x5f3c9a7b21e4d8aa' → 'ana lee').
 */
export function playerOwnerName(name: string): string {
  const dot = name.lastIndexOf('.');
  const trimmed = dot >= 0 && name.length - dot - 1 > 14 ? name.slice(0, dot) : name;
  return trimmed.replace(/_/g, ' ').trim();
}
