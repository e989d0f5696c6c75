import { changeRatePercent, knackPriceMicros, microsToUsd } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import type { TagDoc, TagHistoryDoc } from './tags.model';

export function toTagDto(tag: TagDoc): Schemas['Tag'] {
  return {
    id: String(tag._id),
    label: tag.label,
    name: tag.label,
    slug: tag.slug,
    parentTag: tag.parentTag ? String(tag.parentTag) : null,
    type: tag.type,
    price: microsToUsd(tag.priceMicros),
    priceMicros: tag.priceMicros,
    diffPrice: microsToUsd(tag.diffPriceMicros),
    rate: changeRatePercent(tag.diffPriceMicros, tag.priceMicros),
    knackPrice: microsToUsd(knackPriceMicros(tag.priceMicros)),
    totalReactedCount: tag.totalReactedCount,
    image: tag.image ?? null,
    uploadedAt: tag.uploadedAt.toISOString(),
  };
}

export function toTagHistoryDto(entry: Pick<TagHistoryDoc, 'createdAt' | 'priceMicros'>): Schemas['TagHistoryEntry'] {
  return { createdAt: entry.createdAt.toISOString(), price: microsToUsd(entry.priceMicros), priceMicros: entry.priceMicros };
}
