/**
 * A member's collection (the pieces of others they paid the listing fee for) as a numbered chain per payer
 * (`supported_pieces`, lib/numbered-chain.ts): `{payerId}#{n}` names a piece, appended when the payer is set, newest
 * last, so that a profile's Supported tab pages it from its end down by `_id`. An entry is never removed: the piece's
 * own `payerId` stays the truth, and the reader skips a piece whose payer is no longer this member (an account
 * erased hands its pieces back to their owners) or that is theirs now or off the lists. The entry is written before
 * the piece's payer, so a piece never has a payer whose chain lacks it, in any interleaving of processes.
 */
import { Schema, model, type Types } from 'mongoose';
import { comparedState, type KeptStateReport, noteDifference } from '../../lib/kept-state';
import { numberedChains } from '../../lib/numbered-chain';
import { readById } from '../../lib/query';
import { ContentModel } from './contents.model';

export interface SupportedEntry {
  contentId: Types.ObjectId;
  at: Date;
}

const supportedEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    contentId: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
const SupportedEntryModel = model('SupportedEntry', supportedEntrySchema, 'supported_pieces');

const SEPARATOR = '#';
const chains = numberedChains<SupportedEntry>(SupportedEntryModel, { separator: SEPARATOR, projection: { contentId: 1, at: 1 } });

/**
 * Each payer's chain of changes to pieces they paid for (`support_changes`, `{payerId}#{n}`, entries of the same shape:
 * a piece and when): appended after such a piece is removed or changes hands, which can end or begin its counting as
 * support (a listing fee supports a piece that exists and that the payer does not own). The wallet's kept collections
 * figure, judged piece by piece when a fee is first counted, is counted again once this chain has moved past the
 * number it was counted at.
 */
const SupportChangeModel = model('SupportChange', supportedEntrySchema, 'support_changes');
const changeChains = numberedChains<SupportedEntry>(SupportChangeModel, { separator: SEPARATOR, projection: { contentId: 1, at: 1 } });

/** Notes that a piece `payerId` paid for was removed or changed hands (after the change). */
export async function noteSupportChange(contentId: Types.ObjectId, payerId: Types.ObjectId | string): Promise<void> {
  await changeChains.append(String(payerId), () => ({ contentId, at: new Date() }));
}

/** How many changes the pieces the member paid for have had (0 for none): the end of their chain, read by `_id`. */
export const supportChangesEnd = async (payerId: Types.ObjectId | string) => (await changeChains.end(String(payerId), true)).n;

/** Notes that `payerId` pays for the piece (before the piece's payer is set). */
export async function noteSupported(contentId: Types.ObjectId, payerId: Types.ObjectId | string): Promise<void> {
  await chains.append(String(payerId), () => ({ contentId, at: new Date() }));
}

/** The number of the member's last entry (0 for none). */
export const supportedPiecesEnd = async (payerId: Types.ObjectId | string) => (await chains.end(String(payerId), true)).n;

/** Entries `from`, `from - 1`, … (at most `count`, never below 1) of the member's chain, each with its number. */
export async function supportedPiecesDown(payerId: Types.ObjectId | string, from: number, count: number) {
  const chain = String(payerId);
  const numbers = Array.from({ length: Math.max(0, Math.min(count, from)) }, (_, i) => from - i);
  const found = await Promise.all(numbers.map(async (n) => ({ n, entry: await readById<SupportedEntry>(SupportedEntryModel, chains.idOf(chain, n)) })));
  return found.filter((row): row is { n: number; entry: SupportedEntry } => row.entry !== null);
}

/**
 * Compares the chains with the pieces' payers (both read whole): a piece whose payer's chain lacks it is a
 * difference. The rebuild appends the missing ones to their payers' chains, the oldest piece first, in batches (the
 * large seed writes the payers and then runs it): meant for a quiet database.
 */
async function compareChains(write: boolean): Promise<KeptStateReport> {
  const listed = new Map<string, { end: number; ids: Set<string> }>();
  for await (const doc of SupportedEntryModel.collection.find({}, { projection: { contentId: 1 }, batchSize: 1_000 })) {
    const id = String(doc._id);
    const at = id.lastIndexOf(SEPARATOR);
    const chain = listed.get(id.slice(0, at)) ?? { end: 0, ids: new Set<string>() };
    chain.end = Math.max(chain.end, Number(id.slice(at + 1)));
    chain.ids.add(String(doc.contentId));
    listed.set(id.slice(0, at), chain);
  }
  const differences: string[] = [];
  const batch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (batch.length) await SupportedEntryModel.collection.insertMany(batch.splice(0), { ordered: false });
  };
  let checked = 0;
  const pieces = ContentModel.collection.find({ payerId: { $ne: null } }, { projection: { payerId: 1 }, sort: { _id: 1 }, batchSize: 1_000 });
  for await (const piece of pieces) {
    checked += 1;
    const payer = String(piece.payerId);
    const chain = listed.get(payer) ?? { end: 0, ids: new Set<string>() };
    listed.set(payer, chain);
    if (chain.ids.has(String(piece._id))) continue;
    noteDifference(differences, `member ${payer}: piece ${String(piece._id)} is theirs to list but not in their chain`);
    if (!write) continue;
    chain.end += 1;
    chain.ids.add(String(piece._id));
    batch.push({ _id: chains.idOf(payer, chain.end), contentId: piece._id, at: new Date() });
    if (batch.length >= 1_000) await flush();
  }
  await flush();
  if (write) chains.forget();
  return { checked, differences };
}

/** The members' collections as a kept state (`npm run rebuild -- supported-pieces`). */
export const supportedPiecesState = comparedState(
  'supported-pieces',
  "Each member's chain of the pieces they paid the listing fee for (supported_pieces), rebuilt from the pieces' payerId.",
  compareChains,
);

/** Forgets the chain ends this process knows, for tests that empty the collection under a running app. */
export const forgetSupportedPieces = () => {
  chains.forget();
  changeChains.forget();
};
