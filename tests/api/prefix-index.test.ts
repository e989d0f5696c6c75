/**
 * The word-prefix index (server/lib/prefix-index.ts) on the real database (its folding alone: tests/unit/prefix-index.test.ts), with a small limit per prefix so that its
 * edges show: which ids a prefix holds, what a search of several words gets as candidates and whether it can miss
 * any, what check() calls a difference and what rebuild() writes, and many writers on one prefix at once.
 */
import { model } from 'mongoose';
import { prefixIndex, prefixIndexSchema, type IndexedItem } from '../../server/lib/prefix-index';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();

const TestPrefixModel = model('TestPrefix', prefixIndexSchema(), 'test_prefixes');
const index = prefixIndex(TestPrefixModel, { maxPrefixLength: 3, keptPerPrefix: 3 });

/** Ids of one length, ordered as their numbers (as ObjectId hex strings are). */
const id = (n: number) => String(n).padStart(24, '0');

/** The items as their owner would stream them for a recount. */
async function* itemsOf(items: Record<number, string[]>): AsyncIterable<IndexedItem> {
  for (const [n, terms] of Object.entries(items)) yield { id: id(Number(n)), terms };
}

beforeEach(async () => {
  await TestPrefixModel.deleteMany({});
  index.forget();
});

describe('a prefix index on the database', () => {
  it('when a word is shared by more items than a prefix keeps, then a search of it alone gets the newest, not complete; a rarer word of the query makes it complete', async () => {
    for (const n of [1, 2, 3, 4, 5]) await index.change(id(n), [], n === 1 ? ['apple', 'rare'] : ['apple']);
    expect(await index.candidates(['apple'])).toEqual({ ids: [id(5), id(4), id(3)], complete: false });
    // The rare word's prefix holds every match: the oldest apple is found through it.
    expect(await index.candidates(['apple', 'rare'])).toEqual({ ids: [id(1)], complete: true });
    expect(await index.candidates(['zzz'])).toEqual({ ids: [], complete: true });
    // A word longer than the indexed prefixes is looked up by its first characters (the caller checks the rest).
    expect((await index.candidates(['rarely'])).ids).toEqual([id(1)]);
  });

  it('when items lose terms, then check() finds the index exact though a prefix holds fewer than it could, and rebuild() refills it', async () => {
    for (const n of [1, 2, 3, 4]) await index.change(id(n), [], ['apple']);
    await index.change(id(4), ['apple'], ['pear']);
    await index.change(id(3), ['apple'], []);
    const items = { 1: ['apple'], 2: ['apple'], 4: ['pear'] };
    expect(await index.held('a')).toEqual({ ids: [id(2)], dropped: 1 });
    expect((await index.check(itemsOf(items))).differences).toEqual([]);
    await index.rebuild(itemsOf(items));
    expect(await index.held('a')).toEqual({ ids: [id(2), id(1)], dropped: 0 });
    expect(await index.candidates(['app'])).toEqual({ ids: [id(2), id(1)], complete: true });
  });

  it('when an item changed without the index, then check() names the prefixes that differ, and rebuild() writes what the items say', async () => {
    await index.change(id(1), [], ['apple']);
    const report = await index.check(itemsOf({ 1: ['apple'], 2: ['avocado'] }));
    expect(report.differences).toEqual([
      `prefix "a": holds 1 (+0 left out), the items say 2; missing ${id(2)}`,
      `prefix "av": holds 0 (+0 left out), the items say 1; missing ${id(2)}`,
      `prefix "avo": holds 0 (+0 left out), the items say 1; missing ${id(2)}`,
    ]);
    await index.rebuild(itemsOf({ 1: ['apple'], 2: ['avocado'] }));
    expect((await index.check(itemsOf({ 1: ['apple'], 2: ['avocado'] }))).differences).toEqual([]);
    expect(await index.candidates(['a'])).toEqual({ ids: [id(2), id(1)], complete: true });
  });

  it('when twenty writers change one prefix at once, then no change is lost: the held ids equal the recount', async () => {
    const many = prefixIndex(TestPrefixModel, { maxPrefixLength: 3, keptPerPrefix: 50 });
    await Promise.all(Array.from({ length: 20 }, (_, n) => many.change(id(n + 1), [], ['kiwi'])));
    await Promise.all(Array.from({ length: 20 }, (_, n) => (n % 2 ? many.change(id(n + 1), ['kiwi'], []) : Promise.resolve())));
    const left = Array.from({ length: 20 }, (_, n) => n + 1).filter((n) => (n - 1) % 2 === 0);
    expect(await many.held('kiw')).toEqual({ ids: left.map(id).reverse(), dropped: 0 });
    expect((await many.check(itemsOf(Object.fromEntries(left.map((n) => [n, ['kiwi']]))))).differences).toEqual([]);
  });
});
