import type { TagType } from './tags';

/** Default knack price in USD when a tag has none. */
export const DEFAULT_KNACK_PRICE = 0.05;

/**
 * A knack price in USD as shown: '$0.05', '$0.99' (two decimals). The server has already truncated it
 * to cents (8% of the tag's price); this only formats. Missing or invalid values show the default.
 */
export function formatKnackPrice(value: number | null | undefined): string {
  const amount = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_KNACK_PRICE;
  // Work in whole cents so 0.29 does not print as 0.28 through binary rounding.
  const cents = Math.round(amount * 100);
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** What one knack pays for: a play for music, a view for art and photos. */
export function knackUnit(type: TagType): 'play' | 'view' {
  return type === 'music' ? 'play' : 'view';
}

/** '$0.05 / play' for music, '$0.05 / view' for art and photos. */
export function formatKnackPricePer(value: number | null | undefined, type: TagType): string {
  return `${formatKnackPrice(value)} / ${knackUnit(type)}`;
}
