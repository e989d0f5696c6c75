/**
 * The index of listed pieces by the prefixes of their title's words (lib/prefix-index.ts), in `content_title_prefixes`:
 * what title search reads instead of scanning `contents`. A piece is in it while it is listed (public, neither held
 * nor taken down); every change of that or of its title goes through `changeTitleTerms`, and a new piece is added
 * by the model's save hook before it is inserted.
 */
import { model } from 'mongoose';
import { prefixIndex, prefixIndexSchema } from '../../lib/prefix-index';

const TitlePrefixModel = model('ContentTitlePrefix', prefixIndexSchema(), 'content_title_prefixes');

/**
 * Eight characters tell most words apart (a longer word is checked in full on the candidates). 100 ids per prefix
 * bound a search to 100 reads of pieces by `_id` (each read costs about as much as any other on FerretDB, so this,
 * not the size of what is read, is a search's cost); only a prefix shared by more listed pieces than that (one or
 * two letters, or a word in very many titles, at 100,000 pieces) leaves its oldest out.
 */
export const titleIndex = prefixIndex(TitlePrefixModel, { maxPrefixLength: 8, keptPerPrefix: 100 });

/** The terms a piece is indexed by: its title's words while it is listed, none otherwise. */
export const titleTermsOf = (piece: { listed?: boolean | null; titleWords?: string[] | null }): string[] => (piece.listed ? [...(piece.titleWords ?? [])] : []);

/** Records a piece's change from `before` to `after` (as titleTermsOf reads them) around `write`, the change itself. */
export function changeTitleTerms<T>(
  contentId: { toString(): string },
  before: Parameters<typeof titleTermsOf>[0],
  after: Parameters<typeof titleTermsOf>[0],
  write?: () => Promise<T>,
): Promise<T | undefined> {
  return titleIndex.change(String(contentId), titleTermsOf(before), titleTermsOf(after), write);
}
