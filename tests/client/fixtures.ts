/**
 * Tags shaped as GET /api/v2/tag/get-all returns them: the seeded names, and a knack price of 0.05, or 0.99
 * for Digital Art and Music 2.
 */
import type { components } from '../../generated/openapi';

type Tag = components['schemas']['Tag'];
type TagType = components['schemas']['TagType'];

let counter = 0;
const hexId = () => (++counter).toString(16).padStart(24, '0');

export function makeTag(name: string, type: TagType, parentTag: string | null, knackPrice = 0.05): Tag {
  const price = knackPrice / 0.08;
  return {
    id: hexId(),
    label: name,
    name,
    slug: name
      .toLowerCase()
      .replace(/&/g, 'and')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/(^-|-$)/g, ''),
    parentTag,
    type,
    price,
    priceMicros: Math.round(price * 1_000_000),
    diffPrice: 0,
    rate: 0,
    knackPrice,
    totalReactedCount: 0,
    image: null,
    uploadedAt: '2026-01-01T00:00:00.000Z',
  };
}

export function tagFixture(): Tag[] {
  // Server order is not guaranteed to be Music, Art, Photos: put Photos first to prove the grouping sorts.
  const photos = makeTag('Photos', 'photos', null);
  const music = makeTag('Music', 'music', null);
  const art = makeTag('Art', 'art', null);
  return [
    photos,
    music,
    art,
    makeTag('Music 2', 'music', music.id, 0.99),
    makeTag('Rock', 'music', music.id),
    makeTag('Hip Hop', 'music', music.id),
    makeTag('Jazz', 'music', music.id),
    makeTag('A.I. Art', 'art', art.id),
    makeTag('Digital Art', 'art', art.id, 0.99),
    makeTag('Pixel Art', 'art', art.id),
    makeTag('Cars', 'photos', photos.id),
    makeTag('Travel', 'photos', photos.id),
    makeTag('Animals and Pets', 'photos', photos.id),
    makeTag('Architecture & Buildings', 'photos', photos.id),
  ];
}

export const footerFixture = {
  pageUi: {
    name: 'footer',
    updatedAt: '2026-01-01T00:00:00.000Z',
    sections: [
      { title: 'MOST VIEWED', entries: [{ name: 'Digital Art', link: '/explore/digital-art' }] },
      {
        title: 'SUPPORT',
        entries: [
          { name: 'FAQ', link: '/earning/faq' },
          { name: 'Contact us', link: 'mailto:support@knack.example' },
        ],
      },
      {
        title: 'SOCIAL',
        entries: [
          { name: 'Twitter', link: 'https://twitter.com/knack' },
          { name: 'Instagram', link: 'https://instagram.com/knack' },
        ],
      },
      {
        title: 'TRENDING',
        entries: [
          { name: 'Hip Hop', link: '/explore/hip-hop' },
          { name: 'Travel', link: '/explore/travel' },
        ],
      },
    ],
  },
};
