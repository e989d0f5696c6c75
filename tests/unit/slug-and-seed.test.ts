import { MAIN_TAGS, seedKnackPriceMicros, slugify } from '../../server/modules/tags/testing';

describe('slugify', () => {
  it.each([
    ['Hip Hop', 'hip-hop'],
    ['R&B', 'r-b'],
    ['A.I. Art', 'a-i-art'],
    ['Architecture & Buildings', 'architecture-buildings'],
    ['  Music 2 ', 'music-2'],
  ])('when the label is %p, then the slug is %p', (label, slug) => {
    expect(slugify(label)).toBe(slug);
  });

  it('when every seeded label is slugged, then no two collide', () => {
    const labels = MAIN_TAGS.flatMap((m) => [m.label, ...m.subTags]);
    expect(new Set(labels.map(slugify)).size).toBe(labels.length);
  });
});

describe('seeded knack prices', () => {
  it('when a tag is Digital Art or Music 2, then a knack is $0.99; otherwise $0.05', () => {
    expect(seedKnackPriceMicros('Digital Art')).toBe(990_000);
    expect(seedKnackPriceMicros('Music 2')).toBe(990_000);
    expect(seedKnackPriceMicros('Jazz')).toBe(50_000);
    expect(seedKnackPriceMicros('Photos')).toBe(50_000);
  });
});
