/** The word-prefix index's pure parts (server/lib/prefix-index.ts): which prefixes a term has, and folding a chain's entries. */
import { foldEntries, prefixesOf } from '../../server/lib/prefix-index';

/** Ids of one length, ordered as their numbers (as ObjectId hex strings are). */
const id = (n: number) => String(n).padStart(24, '0');

describe('prefixes and folding', () => {
  it('when terms are indexed, then every prefix of 1 to the longest indexed characters is, an emoji counted as one', () => {
    expect([...prefixesOf(['apple', 'ap'], 3)]).toEqual(['a', 'ap', 'app']);
    expect([...prefixesOf(['😀x'], 3)]).toEqual(['😀', '😀x']);
  });

  it('when more ids are added than a prefix keeps, then the highest stay, the rest are counted, and a removal of a counted one uncounts it', () => {
    const added = foldEntries(
      { ids: [], dropped: 0 },
      [4, 1, 3, 2, 5].map((n) => ({ id: id(n), add: true })),
      3,
    );
    expect(added).toEqual({ ids: [id(5), id(4), id(3)], dropped: 2 });
    expect(foldEntries(added, [{ id: id(1), add: false }], 3)).toEqual({ ids: [id(5), id(4), id(3)], dropped: 1 });
    expect(foldEntries(added, [{ id: id(4), add: false }], 3)).toEqual({ ids: [id(5), id(3)], dropped: 2 });
    // Adding an id held already changes nothing; removing one never held, above those left out, neither.
    expect(
      foldEntries(
        added,
        [
          { id: id(5), add: true },
          { id: id(9), add: false },
        ],
        3,
      ),
    ).toEqual(added);
  });
});
