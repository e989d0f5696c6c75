/** The reference tags (main tags and their sub-tags) with their knack prices. Seeding is idempotent. */
import { tagPriceForKnackPrice } from '../../lib/money';
import { seedKnackPriceMicros } from './price-rule';
import { priceEntryId, TagHistoryModel, TagModel, type TagType } from './tags.model';
import { invalidateTagLists, slugify } from './tags.service';

interface MainTagSeed {
  label: string;
  type: TagType;
  subTags: string[];
}

export const MAIN_TAGS: MainTagSeed[] = [
  {
    label: 'Music',
    type: 'music',
    subTags: ['Music 2', 'Rock', 'Pop', 'Hip Hop', 'R&B', 'Country', 'Jazz', 'Instrumentals', 'Beats'],
  },
  { label: 'Art', type: 'art', subTags: ['A.I. Art', 'Fractal Art', 'Pixel Art', 'Fantasy Art', 'Digital Art'] },
  {
    label: 'Photos',
    type: 'photos',
    subTags: [
      'Cars',
      'Travel',
      'Planes',
      'Trains',
      'Motorcycles',
      'Fashion',
      'People',
      'Animals and Pets',
      'Nature',
      'Architecture & Buildings',
      'Arts & Entertainment',
      'Beauty & Health',
      'Concepts & Ideas',
      'Food and Drink',
      'Holidays & Celebrations',
      'Lifestyle',
      'Sports & Fitness',
    ],
  },
];

/** Inserts missing tags (with their first price-history entry); existing tags are left as they are. */
async function upsertTag(label: string, type: TagType, parentTag: unknown, position: number) {
  const priceMicros = tagPriceForKnackPrice(seedKnackPriceMicros(label));
  const result = await TagModel.updateOne(
    { labelLower: label.toLowerCase() },
    {
      $setOnInsert: {
        label,
        labelLower: label.toLowerCase(),
        slug: slugify(label),
        parentTag,
        type,
        priceMicros,
        diffPriceMicros: 0,
        totalReactedCount: 0,
        position,
      },
    },
    { upsert: true },
  );
  const tag = await TagModel.findOne({ labelLower: label.toLowerCase() }, { _id: 1 }).lean();
  // The first price, under its own key: the market's job sets the price of the seed's day as of any other.
  if (result.upsertedCount && tag) await TagHistoryModel.create({ _id: priceEntryId(tag._id, 'seed'), tagId: tag._id, priceMicros });
  return tag!._id;
}

export async function seedTags(): Promise<void> {
  let position = MAIN_TAGS.length;
  for (const [index, main] of MAIN_TAGS.entries()) {
    const mainId = await upsertTag(main.label, main.type, null, index);
    for (const label of main.subTags) await upsertTag(label, main.type, mainId, position++);
  }
  invalidateTagLists();
}
