import { formatUsd } from '../components/format';
import type { TagType } from './tags';

/** Default knack price in USD when a tag has none. */
export const DEFAULT_KNACK_PRICE = 0.05;

/**
 * A knack price in USD as shown: '$0.05', '$0.99', cut to the cent like every dollar figure. The server has already
 * truncated it to cents (8% of the tag's price). Missing or invalid values show the default.
 */
export function formatKnackPrice(value: number | null | undefined): string {
  return formatUsd(typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_KNACK_PRICE);
}

/** What one knack pays for: a play for music, a view for art and photos. */
export function knackUnit(type: TagType): 'play' | 'view' {
  return type === 'music' ? 'play' : 'view';
}

/** '$0.05 / play' for music, '$0.05 / view' for art and photos. */
export function formatKnackPricePer(value: number | null | undefined, type: TagType): string {
  return `${formatKnackPrice(value)} / ${knackUnit(type)}`;
}
