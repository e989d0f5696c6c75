/**
 * A piece's file versions in order, so that its owner's list and the checks a replacement makes read them by `_id`:
 * a numbered chain per piece (`content_version_numbers`, lib/numbered-chain.ts), `{contentId}#{n}` naming a version
 * record (ContentVersionModel, which keeps its ObjectId: the API names versions by it) and when it stops being
 * restorable. An entry is appended before its record is written, so a record never lacks its entry; an entry whose
 * record is gone (restored, undone, removed after its 30 days) is skipped by the reader.
 *
 * Versions are written under the piece's lock, one after the other, so their entries' `keepUntil` grow with their
 * numbers: a reader walks from the end down and stops at the first entry past its keeping, and reads at most
 * MAX_VERSIONS_READ entries whatever the piece's history.
 */
import { Schema, model, type Types } from 'mongoose';
import { comparedState, type KeptStateReport, noteDifference } from '../../lib/kept-state';
import { numberedChains } from '../../lib/numbered-chain';
import { readById } from '../../lib/query';
import { ContentVersionModel, type ContentVersionDoc } from './contents.model';

interface VersionEntry {
  versionId: Types.ObjectId;
  keepUntil: Date;
}

const versionEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    versionId: { type: Schema.Types.ObjectId, required: true },
    keepUntil: { type: Date, required: true },
  },
  { versionKey: false },
);
const VersionEntryModel = model('ContentVersionEntry', versionEntrySchema, 'content_version_numbers');

const SEPARATOR = '#';
const chains = numberedChains<VersionEntry>(VersionEntryModel, { separator: SEPARATOR, projection: { versionId: 1, keepUntil: 1 } });

/**
 * At most this many of a piece's latest versions are read: replacements are limited to 30 an hour per member, and a
 * version is restorable for 30 days, so this holds what an owner can meaningfully pick from.
 */
export const MAX_VERSIONS_READ = 100;
const READ_AT_ONCE = 10;

/** Notes the piece's next version (before its record is written). */
export async function noteVersion(contentId: Types.ObjectId, versionId: Types.ObjectId, keepUntil: Date): Promise<void> {
  await chains.append(String(contentId), () => ({ versionId, keepUntil }));
}

/**
 * The piece's version records still within their keeping (any state), the latest first: its chain from the end down,
 * each record by `_id`, stopping at the first entry past its keeping.
 */
export async function recentVersions(contentId: Types.ObjectId, now = Date.now()): Promise<ContentVersionDoc[]> {
  const chain = String(contentId);
  let from = (await chains.end(chain, true)).n;
  const found: ContentVersionDoc[] = [];
  const seen = new Set<string>();
  let read = 0;
  while (from >= 1 && read < MAX_VERSIONS_READ) {
    const numbers = Array.from({ length: Math.min(READ_AT_ONCE, from, MAX_VERSIONS_READ - read) }, (_, i) => from - i);
    const entries = await Promise.all(numbers.map((n) => readById<VersionEntry>(VersionEntryModel, chains.idOf(chain, n))));
    const cut = entries.findIndex((entry) => entry !== null && entry.keepUntil.getTime() <= now);
    const live = (cut < 0 ? entries : entries.slice(0, cut)).filter((entry): entry is VersionEntry => entry !== null);
    const records = await Promise.all(live.map((entry) => readById<ContentVersionDoc>(ContentVersionModel, entry.versionId)));
    for (const record of records) {
      if (record && !seen.has(String(record._id))) {
        seen.add(String(record._id));
        found.push(record);
      }
    }
    if (cut >= 0) break;
    read += numbers.length;
    from -= numbers.length;
  }
  return found;
}

/**
 * Compares the chains with the version records (both read whole): a record within its keeping that its piece's
 * chain lacks is a difference. The rebuild appends every such piece's records within their keeping, the oldest
 * first, after its chain's end (the reader shows each once): meant for a quiet database.
 */
async function compareChains(write: boolean): Promise<KeptStateReport> {
  const listed = new Map<string, { end: number; ids: Set<string> }>();
  for await (const doc of VersionEntryModel.collection.find({}, { projection: { versionId: 1 }, batchSize: 1_000 })) {
    const id = String(doc._id);
    const at = id.lastIndexOf(SEPARATOR);
    const chain = listed.get(id.slice(0, at)) ?? { end: 0, ids: new Set<string>() };
    chain.end = Math.max(chain.end, Number(id.slice(at + 1)));
    chain.ids.add(String(doc.versionId));
    listed.set(id.slice(0, at), chain);
  }
  const now = Date.now();
  const byPiece = new Map<string, ContentVersionDoc[]>();
  for await (const record of ContentVersionModel.collection.find({}, { batchSize: 1_000 })) {
    const version = record as unknown as ContentVersionDoc;
    if (version.keepUntil.getTime() <= now) continue;
    byPiece.set(String(version.contentId), [...(byPiece.get(String(version.contentId)) ?? []), version]);
  }
  const differences: string[] = [];
  const batch: Record<string, unknown>[] = [];
  for (const [piece, versions] of byPiece) {
    const chain = listed.get(piece) ?? { end: 0, ids: new Set<string>() };
    const missing = versions.filter((version) => !chain.ids.has(String(version._id)));
    if (!missing.length) continue;
    noteDifference(differences, `piece ${piece}: versions ${missing.map((version) => String(version._id)).join(', ')} are not in its chain`);
    if (!write) continue;
    for (const version of [...versions].sort((a, b) => a.replacedAt.getTime() - b.replacedAt.getTime())) {
      chain.end += 1;
      batch.push({ _id: chains.idOf(piece, chain.end), versionId: version._id, keepUntil: version.keepUntil });
    }
  }
  for (let i = 0; i < batch.length; i += 1_000) await VersionEntryModel.collection.insertMany(batch.slice(i, i + 1_000), { ordered: false });
  if (write) chains.forget();
  return { checked: byPiece.size, differences };
}

/** The pieces' version chains as a kept state (`npm run rebuild -- content-versions`). */
export const contentVersionsState = comparedState(
  'content-versions',
  "Each piece's chain of its file versions (content_version_numbers), rebuilt from the version records.",
  compareChains,
);

/** Forgets the chain ends this process knows, for tests that empty the collections under a running app. */
export const forgetVersionChains = () => chains.forget();
