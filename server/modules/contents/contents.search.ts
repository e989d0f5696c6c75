/**
 * Title search over the title index (contents.title-index.ts): the candidates it holds are read by `_id` and checked
 * exactly, so a search reads at most the index's few documents and 100 pieces, however many pieces there are.
 */
import { Types } from 'mongoose';
import type { KeptStateReport } from '../../lib/kept-state';
import type { IndexedItem } from '../../lib/prefix-index';
import { readById } from '../../lib/query';
import { queryWords, startsEveryWord } from '../../lib/search';
import { ContentModel, type ContentDoc } from './contents.model';
import { titleIndex, titleTermsOf } from './contents.title-index';

/**
 * The listed pieces whose title has a word starting with each word of `query` (none when it has no words), in no
 * particular order. `complete` is false when the query's words are all so common that only the newest pieces having
 * them were candidates (lib/prefix-index.ts).
 */
export async function listedPiecesMatching(query: string): Promise<{ pieces: ContentDoc[]; complete: boolean }> {
  const words = queryWords(query);
  if (!words.length) return { pieces: [], complete: true };
  const { ids, complete } = await titleIndex.candidates(words);
  const pieces = await Promise.all(ids.map((id) => readById<ContentDoc>(ContentModel, new Types.ObjectId(id))));
  return { pieces: pieces.filter((piece): piece is ContentDoc => Boolean(piece?.listed && startsEveryWord(words, piece.titleWords ?? []))), complete };
}

/** Every piece with the terms it is indexed by, read in one pass (for the index's check and rebuild). */
async function* indexedPieces(): AsyncIterable<IndexedItem> {
  for await (const piece of ContentModel.collection.find({}, { projection: { listed: 1, titleWords: 1 } })) {
    yield { id: String(piece._id), terms: titleTermsOf(piece as unknown as Pick<ContentDoc, 'listed' | 'titleWords'>) };
  }
}

/** The title index against the pieces: compared (`check`) or written (`rebuild`). */
export const titleIndexState = {
  check: (): Promise<KeptStateReport> => titleIndex.check(indexedPieces()),
  rebuild: (): Promise<KeptStateReport> => titleIndex.rebuild(indexedPieces()),
  /** For tests that empty the collection under a running app. */
  forget: titleIndex.forget,
};
