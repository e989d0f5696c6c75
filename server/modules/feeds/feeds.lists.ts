/**
 * The feeds' ranked lists: each public feed (a ranking of feeds.rankings.ts, over all pieces, one main tag, one
 * sub-tag or one artist's pieces), the artists' lists and each artist's Top 50, built by a job from one read of the
 * listed pieces and the artists, and stored as numbered page documents read by `_id` (`page:{list}@{version}:{p}`,
 * PAGE_IDS ids each, with the sort key each piece had at the build; an artist's lists and chart in one document of
 * theirs, ArtistLists). A reader reads the list's head (`head:{list}`: its version, length and mark), the one or two
 * pages its cursor falls in, and each piece by `_id`: a page costs a bounded number of reads whatever the catalogue's
 * size, where a sorted read of `contents` reads every piece on FerretDB.
 *
 * A build is a picture of one moment; two things keep the answers current between builds:
 * - every piece is read by `_id` to be shown, and one no longer in the list (hidden, made private, removed, taken
 *   down, an artist without public pieces left) is skipped: a hidden piece leaves every feed at once;
 * - the pieces changed since the build (contents' `changes` chain after the build's mark: published, re-listed,
 *   re-posted, handed over) are read with their keys as they are now and merged in by key, wherever they fall: a new
 *   piece tops Newest at once, a re-posted one tops Featured. They are taken from the list where the build had them,
 *   so none shows twice. At most FRESH_CAP of them are merged (the newest), a few minutes' worth at most.
 * What a build alone moves: the order of pieces already listed by reactions and trend (the rankings job recounts
 * them and rebuilds the lists every 5 minutes), and artists' order by fans and trend.
 *
 * A cursor holds the build's version, the build position to go on from and the last position shown, so that a reader
 * pages through one build: the build before the current one is kept until the next build, so a cursor outlives one
 * build; an older one goes on from the same index in the current build.
 */
import { createHash } from 'node:crypto';
import { Schema, Types, model } from 'mongoose';
import type { KeptState, KeptStateReport } from '../../lib/kept-state';
import { noteDifference } from '../../lib/kept-state';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import { publicPages } from '../../lib/public-pages';
import { ours, readById } from '../../lib/query';
import {
  contentReads,
  deleteChainEntries,
  everyOwnerChainEntry,
  ownerChainOf,
  pieceChainEntryId,
  pieceChangesEnd,
  pieceChangesSince,
  rewriteOwnerChains,
  type ContentDoc,
  type PieceChainEntry,
} from '../contents';
import type { TagType } from '../tags';
import { userReads, type UserDoc } from '../users';
import { RANKINGS, type FeedKind } from './feeds.kinds';

/** Ids per stored page of a list. */
export const PAGE_IDS = 250;
/** At most this many changes since a build are merged into a read (the newest). */
export const FRESH_CAP = 500;
/** At most this many build entries are read for one page (a run of pieces hidden since the build ends it early). */
const MAX_SCANNED = 200;
/** Songs kept per artist's Top 50 list: a few more than shown, for those hidden since the build. */
const TOP50_KEPT = 60;
const TOP_50 = 50;

const FEED_KINDS: FeedKind[] = ['featured', 'popular', 'trending', 'radar', 'new'];
const FEED_TYPES: (TagType | undefined)[] = [undefined, 'music', 'art', 'photos'];
export type ArtistOrder = 'newest' | 'by-fans' | 'trending';
const ARTIST_KEYS: Record<ArtistOrder, 'followersCount' | 'trendScore' | null> = { newest: null, 'by-fans': 'followersCount', trending: 'trendScore' };

export const pieceListOf = (kind: FeedKind, type: TagType | undefined) => `pieces:${kind}:${type ?? 'all'}`;
/** A ranking over the pieces of one sub-tag (by its label, as pieces hold it: a piece's sub-tag never changes). */
export const subTagListOf = (kind: FeedKind, subTag: string) => `pieces:${kind}:sub:${subTag}`;
/** A ranking over one artist's pieces (its pages after the first: the first is in the artist's document). */
const ownerListOf = (kind: FeedKind, artistId: string) => `pieces:${kind}:owner:${artistId}`;
/** An artist's lists (ArtistLists). */
const artistListsId = (artistId: string) => `artist:${artistId}`;
export const artistListOf = (order: ArtistOrder) => `artists:${order}`;
const headId = (list: string) => `head:${list}`;
const pageId = (list: string, version: number, page: number) => `page:${list}@${version}:${page}`;
/** An artist's Top 50 list as builds before ArtistLists kept it (removed by the first build that has them). */
const legacyTop50Id = (artistId: unknown) => `top50:${String(artistId)}`;
/** The last build's version and mark: what every reader of an artist's lists reads first. */
const BUILD_ID = 'build';
/** What the builds wrote per artist (BuiltArtists), in 16 documents by the last hex digit of the artist's id. */
const ARTIST_SHARDS = [...'0123456789abcdef'];
const builtArtistsId = (shard: string) => `build:artists:${shard}`;
const shardOf = (artistId: string) => artistId.slice(-1);

interface ListHead {
  _id: string;
  version: number;
  pages: number;
  count: number;
  mark: number;
  previous: { version: number; pages: number } | null;
}
interface ListPage {
  _id: string;
  ids: string[];
  keys: (number | null)[];
  count: number;
  mark: number;
}
interface BuildRecord {
  _id: string;
  mark: number;
  version: number;
  /**
   * The sub-tags that have lists (to empty those whose pieces have all gone). Absent on a build made before the
   * feeds kept lists per sub-tag: readers then use the sorted read until the next build.
   */
  subTags?: string[];
  /** Whether this build wrote ArtistLists (absent on a build from before them, as `subTags` is). */
  artistLists?: boolean;
  /** Builds before ArtistLists: the artists with a Top 50 list under legacyTop50Id. */
  top50Artists?: string[];
}

/**
 * An artist's lists (`artist:{artistId}`): for each kind, the ranking over their pieces (its length, its number of
 * pages and its first page inline; the few artists with more pieces than a page have their further pages as
 * `page:{ownerListOf}@{version}:{p}`), and their Top 50 chart. One document per artist, written by a build only when
 * what it holds changed (most artists' pieces do not move between two builds), with that build's version and mark.
 * Every build compares every artist's lists, so a document not written by the last build is as that build found it:
 * a reader takes the changes since the later of its mark and the last build's.
 */
interface ArtistLists {
  _id: string;
  version: number;
  mark: number;
  lists: Partial<Record<FeedKind, { count: number; pages: number; ids: string[]; keys: (number | null)[] }>>;
  /** The songs of the artist's Top 50 chart by reactions (a few more than shown): absent when they have none. */
  top50?: string[];
}

/**
 * What the builds wrote for the artists of one shard: read by the build and the check, never by a request (it grows
 * with the artists).
 */
interface BuiltArtists {
  _id: string;
  /** Each artist's digest of their lists and chart as their document holds them: unchanged ones are not written. */
  digests: Record<string, string>;
  /** The further pages written, of each list's two newest versions (the older one for the cursors given from it). */
  pages: { artist: string; list: string; version: number; pages: number }[];
  /** Set while a build writes the artists' documents: one that stopped midway leaves the digests unsure. */
  writing?: boolean;
}

/** Heads, pages, the artists' lists and the build's records: written by the build alone, read by `_id`. */
const feedListSchema = new Schema({ _id: { type: String, required: true } }, { strict: false, versionKey: false });
export const FeedListModel = model('FeedList', feedListSchema, 'feed_lists');

/** A place in a list, in its order: the greater key first, then the greater id (hex ids compare as ObjectIds do). */
interface Position {
  key: number | null;
  id: string;
}
const comesBefore = (a: Position, b: Position) => ((a.key ?? 0) !== (b.key ?? 0) ? (a.key ?? 0) > (b.key ?? 0) : a.id > b.id);
const inOrder = (a: Position, b: Position) => (comesBefore(a, b) ? -1 : comesBefore(b, a) ? 1 : 0);

// ---------------------------------------------------------------------------------------------------------------
// What a list holds: one rule for the build, the check and the reader.

type ListedPiece = Pick<
  ContentDoc,
  '_id' | 'type' | 'subTag' | 'listed' | 'featureRank' | 'reactedCount' | 'trendScore' | 'radarScore' | 'ownerId' | 'top50ArtistId'
>;
type ListedArtist = Pick<UserDoc, '_id' | 'contentsCount' | 'followersCount' | 'trendScore'>;

const pieceKeyOf = (kind: FeedKind) => (piece: ListedPiece) => {
  const key = RANKINGS[kind].key;
  return key ? Number(piece[key] ?? 0) : null;
};
const pieceBelongs = (kind: FeedKind, type: TagType | undefined, subTag?: string) => (piece: ListedPiece) =>
  piece.listed === true &&
  (!type || piece.type === type) &&
  (subTag === undefined || piece.subTag === subTag) &&
  (kind !== 'radar' || (piece.radarScore ?? 0) > 0);
const artistKeyOf = (order: ArtistOrder) => (artist: ListedArtist) => {
  const key = ARTIST_KEYS[order];
  return key ? Number(artist[key] ?? 0) : null;
};
const artistBelongs = (artist: ListedArtist) => (artist.contentsCount ?? 0) > 0;
const isChartSongOf = (artistId: string) => (piece: ListedPiece) =>
  piece.listed === true && piece.type === 'music' && (String(piece.ownerId) === artistId || String(piece.top50ArtistId ?? '') === artistId);
const byReactions = (a: ListedPiece, b: ListedPiece) => inOrder({ key: a.reactedCount, id: String(a._id) }, { key: b.reactedCount, id: String(b._id) });

const PIECE_FIELDS = { type: 1, subTag: 1, listed: 1, featureRank: 1, reactedCount: 1, trendScore: 1, radarScore: 1, ownerId: 1, top50ArtistId: 1 } as const;

interface SortedList {
  ids: string[];
  keys: (number | null)[];
}

function sortedList<T extends { _id: Types.ObjectId }>(rows: T[], keyOf: (row: T) => number | null): SortedList {
  const positions = rows.map((row) => ({ key: keyOf(row), id: String(row._id) })).sort(inOrder);
  return { ids: positions.map((p) => p.id), keys: positions.map((p) => p.key) };
}

/**
 * Every list as a sorted read of the pieces and artists gives it now: what a build writes and a check compares.
 * `formerSubTags` are the sub-tags the last build kept lists for: one whose pieces have all gone gets an empty list.
 */
async function expectedLists(
  formerSubTags: string[] = [],
): Promise<{ lists: Map<string, SortedList>; owners: Map<string, Map<FeedKind, SortedList>>; top50: Map<string, string[]>; subTags: string[] }> {
  const [pieces, artists] = await Promise.all([
    contentReads.many<ListedPiece>({ listed: true }, { projection: PIECE_FIELDS }),
    userReads.many<ListedArtist>(ours({ contentsCount: { $gt: 0 } }), { projection: { contentsCount: 1, followersCount: 1, trendScore: 1 } }),
  ]);
  const lists = new Map<string, SortedList>();
  for (const kind of FEED_KINDS)
    for (const type of FEED_TYPES) lists.set(pieceListOf(kind, type), sortedList(pieces.filter(pieceBelongs(kind, type)), pieceKeyOf(kind)));
  // The sub-tags' lists from the same read, the pieces grouped by sub-tag in one pass: each piece is sorted into its
  // own sub-tag's lists only, so these cost what the main tags' lists cost, whatever the number of sub-tags.
  const bySubTag = new Map<string, ListedPiece[]>(formerSubTags.map((subTag) => [subTag, []]));
  for (const piece of pieces) if (piece.subTag) pushTo(bySubTag, piece.subTag, piece);
  for (const [subTag, group] of bySubTag)
    for (const kind of FEED_KINDS) lists.set(subTagListOf(kind, subTag), sortedList(group.filter(pieceBelongs(kind, undefined)), pieceKeyOf(kind)));
  for (const order of Object.keys(ARTIST_KEYS) as ArtistOrder[]) lists.set(artistListOf(order), sortedList(artists.filter(artistBelongs), artistKeyOf(order)));

  // Each artist's lists (the feeds filtered by artist), from the same read grouped by owner in one pass.
  const byOwner = new Map<string, ListedPiece[]>();
  for (const piece of pieces) pushTo(byOwner, String(piece.ownerId), piece);
  const owners = new Map(
    [...byOwner].map(([owner, group]) => [
      owner,
      new Map(FEED_KINDS.map((kind) => [kind, sortedList(group.filter(pieceBelongs(kind, undefined)), pieceKeyOf(kind))])),
    ]),
  );

  const songsOf = new Map<string, ListedPiece[]>();
  for (const piece of pieces) {
    if (piece.type !== 'music') continue;
    const artists = new Set([String(piece.ownerId), ...(piece.top50ArtistId ? [String(piece.top50ArtistId)] : [])]);
    for (const artist of artists) pushTo(songsOf, artist, piece);
  }
  const top50 = new Map(
    [...songsOf].map(([artist, songs]) => [
      artist,
      songs
        .sort(byReactions)
        .slice(0, TOP50_KEPT)
        .map((song) => String(song._id)),
    ]),
  );
  return { lists, owners, top50, subTags: [...bySubTag.keys()] };
}

function pushTo<T>(groups: Map<string, T[]>, key: string, row: T): void {
  const group = groups.get(key);
  if (group) group.push(row);
  else groups.set(key, [row]);
}

// ---------------------------------------------------------------------------------------------------------------
// The build (the rankings job, after it has recounted the totals) and the kept state.

async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await write(rows.slice(i, i + 1000));
}

/**
 * Builds every list again from the pieces and artists as they are: new page documents under a new version, then the
 * heads that point readers at them, then the pages of the build before the previous one removed (the previous stays
 * for the cursors given from it). The artists' documents are written only for the artists whose lists changed (every
 * one with `rewriteAll`). Runs under the rankings job's lease, or alone on a quiet database (the rebuild).
 */
export async function buildFeedLists({ rewriteAll = false } = {}): Promise<{ lists: number; entries: number; artistsWritten: number }> {
  // The mark first: a piece changed while the pieces are read is then merged by readers too (merging twice is harmless).
  const mark = await pieceChangesEnd();
  const [build, shards] = await Promise.all([
    readById<BuildRecord>(FeedListModel, BUILD_ID),
    Promise.all(ARTIST_SHARDS.map((shard) => readById<BuiltArtists>(FeedListModel, builtArtistsId(shard)))),
  ]);
  const { lists, owners, top50, subTags } = await expectedLists(build?.subTags);
  const heads = new Map(
    (await Promise.all([...lists.keys()].map((list) => readById<ListHead>(FeedListModel, headId(list))))).flatMap((head) => (head ? [[head._id, head]] : [])),
  );
  const version = Math.max(Date.now(), (build?.version ?? 0) + 1);

  const pages: ListPage[] = [];
  let entries = 0;
  for (const [list, { ids, keys }] of lists) {
    entries += ids.length;
    for (let p = 0; p * PAGE_IDS < Math.max(ids.length, 1); p += 1)
      pages.push({
        _id: pageId(list, version, p),
        ids: ids.slice(p * PAGE_IDS, (p + 1) * PAGE_IDS),
        keys: keys.slice(p * PAGE_IDS, (p + 1) * PAGE_IDS),
        count: ids.length,
        mark,
      });
  }

  // The artists' lists: each artist's rankings and chart, written only when their digest differs from the last
  // written (all of them after a build that stopped midway, and on a rebuild).
  const known = new Map<string, string>();
  for (const shard of shards)
    if (shard && !shard.writing && !rewriteAll) for (const [artist, digest] of Object.entries(shard.digests ?? {})) known.set(artist, digest);
  const formerArtists = new Set(shards.flatMap((shard) => Object.keys(shard?.digests ?? {})));
  const digests = new Map<string, string>();
  const written: ArtistLists[] = [];
  const newPages: BuiltArtists['pages'] = [];
  for (const artist of new Set([...owners.keys(), ...top50.keys()])) {
    const doc: ArtistLists = { _id: artistListsId(artist), version, mark, lists: {}, ...(top50.has(artist) ? { top50: top50.get(artist) } : {}) };
    const further: ListPage[] = [];
    const furtherLists: BuiltArtists['pages'] = [];
    for (const [kind, { ids, keys }] of owners.get(artist) ?? []) {
      entries += ids.length;
      const count = Math.max(1, Math.ceil(ids.length / PAGE_IDS));
      doc.lists[kind] = { count: ids.length, pages: count, ids: ids.slice(0, PAGE_IDS), keys: keys.slice(0, PAGE_IDS) };
      if (count > 1) furtherLists.push({ artist, list: ownerListOf(kind, artist), version, pages: count });
      for (let p = 1; p < count; p += 1)
        further.push({
          _id: pageId(ownerListOf(kind, artist), version, p),
          ids: ids.slice(p * PAGE_IDS, (p + 1) * PAGE_IDS),
          keys: keys.slice(p * PAGE_IDS, (p + 1) * PAGE_IDS),
          count: ids.length,
          mark,
        });
    }
    const digest = createHash('sha1')
      .update(JSON.stringify([doc.lists, doc.top50 ?? null]))
      .digest('base64')
      .slice(0, 16);
    digests.set(artist, digest);
    if (known.get(artist) === digest) continue;
    written.push(doc);
    pages.push(...further);
    newPages.push(...furtherLists);
  }
  await inBatches(pages, (batch) => FeedListModel.collection.insertMany(batch as never[], { ordered: false }));

  // The digests are unsure while the documents are written: a build that stops here makes the next one write all.
  const marked = ARTIST_SHARDS.filter((_, i) => shards[i]);
  if (written.length && marked.length)
    await FeedListModel.collection.bulkWrite(
      marked.map((shard) => ({ updateOne: { filter: { _id: builtArtistsId(shard) as never }, update: { $set: { writing: true } } } })),
      { ordered: false },
    );
  const newHeads: ListHead[] = [...lists].map(([list, { ids }]) => {
    const old = heads.get(headId(list));
    return {
      _id: headId(list),
      version,
      pages: Math.max(1, Math.ceil(ids.length / PAGE_IDS)),
      count: ids.length,
      mark,
      previous: old ? { version: old.version, pages: old.pages } : null,
    };
  });
  // Written as they are (the driver's own write: an artist's empty `lists` must stay an empty object).
  await inBatches([...newHeads, ...written], (batch) =>
    FeedListModel.collection.bulkWrite(
      batch.map((doc) => ({ replaceOne: { filter: { _id: doc._id as never }, replacement: doc as never, upsert: true } })),
      { ordered: false },
    ),
  );

  // Each list's further pages of its two newest versions stay; those of older versions and of artists gone do not.
  const byList = new Map<string, BuiltArtists['pages']>();
  for (const entry of [...newPages, ...shards.flatMap((shard) => shard?.pages ?? [])]) pushTo(byList, entry.list, entry);
  const keptPages: BuiltArtists['pages'] = [];
  const stalePages: BuiltArtists['pages'] = [];
  for (const entries of byList.values()) {
    const newest = [...new Map(entries.map((entry) => [entry.version, entry])).values()].sort((a, b) => b.version - a.version);
    for (const [i, entry] of newest.entries()) (i < 2 && digests.has(entry.artist) ? keptPages : stalePages).push(entry);
  }
  const gone = [...formerArtists].filter((artist) => !digests.has(artist));
  await FeedListModel.collection.bulkWrite(
    ARTIST_SHARDS.map((shard) => ({
      replaceOne: {
        filter: { _id: builtArtistsId(shard) as never },
        replacement: {
          digests: Object.fromEntries([...digests].filter(([artist]) => shardOf(artist) === shard)),
          pages: keptPages.filter((entry) => shardOf(entry.artist) === shard),
        },
        upsert: true,
      },
    })),
    { ordered: false },
  );
  const record: Omit<BuildRecord, '_id'> = { mark, version, subTags, artistLists: true };
  await FeedListModel.collection.replaceOne({ _id: BUILD_ID as never }, record, { upsert: true });

  // The build before the previous one: no cursor pages it any more.
  const stale = [
    ...[...heads.values()].flatMap((head) =>
      head.previous ? Array.from({ length: head.previous.pages }, (_, p) => pageId(head._id.slice(5), head.previous!.version, p)) : [],
    ),
    ...stalePages.flatMap(({ list, version: old, pages: count }) => Array.from({ length: count - 1 }, (_, p) => pageId(list, old, p + 1))),
    ...gone.map(artistListsId),
    ...(build?.top50Artists ?? []).map(legacyTop50Id),
  ];
  await inBatches(stale, (batch) =>
    FeedListModel.bulkWrite(
      batch.map((id) => ({ deleteOne: { filter: { _id: id } } })),
      { ordered: false },
    ),
  );
  return { lists: lists.size + digests.size, entries, artistsWritten: written.length };
}

/** An artist's stored list of one kind (the ids in order), or null when it was never built. */
function storedOwnerList(doc: ArtistLists | null, owner: string, kind: FeedKind): Promise<string[] | null> | null {
  const list = doc?.lists[kind];
  if (!doc || !list) return null;
  return Promise.all(
    Array.from({ length: list.pages - 1 }, (_, p) => readById<ListPage>(FeedListModel, pageId(ownerListOf(kind, owner), doc.version, p + 1))),
  ).then((pages) => [...list.ids, ...pages.flatMap((page) => page?.ids ?? [])]);
}

/** The stored list as its head names it (the ids in order), or null when it was never built. */
async function storedList(list: string): Promise<string[] | null> {
  const head = await readById<ListHead>(FeedListModel, headId(list));
  if (!head) return null;
  const pages = await Promise.all(Array.from({ length: head.pages }, (_, p) => readById<ListPage>(FeedListModel, pageId(list, head.version, p))));
  return pages.flatMap((page) => page?.ids ?? []);
}

/** A member's pieces in the order they became theirs, as their lists must hold them (oldest first). */
async function expectedOwnerChains(): Promise<Map<string, { contentId: Types.ObjectId; ownerId: Types.ObjectId; at: Date }[]>> {
  const pieces = await contentReads.many<Pick<ContentDoc, '_id' | 'ownerId' | 'type' | 'uploadedAt'>>(
    {},
    { projection: { ownerId: 1, type: 1, uploadedAt: 1 }, sort: { _id: 1 } },
  );
  const chains = new Map<string, { contentId: Types.ObjectId; ownerId: Types.ObjectId; at: Date }[]>();
  for (const piece of pieces) {
    const entry = { contentId: piece._id, ownerId: piece.ownerId, at: piece.uploadedAt ?? piece._id.getTimestamp() };
    for (const chain of [ownerChainOf(piece.ownerId), ownerChainOf(piece.ownerId, piece.type)]) chains.set(chain, [...(chains.get(chain) ?? []), entry]);
  }
  return chains;
}

/**
 * Compares each member's lists with their pieces: every piece they own must be on their list and on its type's list,
 * once. The order is the order the pieces became theirs (a piece bought later comes later), which the pieces alone do
 * not tell, so it is not compared; an entry of a piece since handed to another member, or removed, is allowed (the
 * reader skips it).
 */
async function checkOwnerChains(differences: string[]): Promise<{ checked: number; wrong: Set<string> }> {
  const [expected, stored] = await Promise.all([expectedOwnerChains(), everyOwnerChainEntry()]);
  const held = new Map<string, string[]>();
  for (const row of stored) held.set(row.chain, [...(held.get(row.chain) ?? []), String(row.contentId)]);
  const wrong = new Set<string>();
  for (const [chain, entries] of expected) {
    const owned = new Set(entries.map((entry) => String(entry.contentId)));
    const kept = (held.get(chain) ?? []).filter((id) => owned.has(id));
    if (kept.length !== owned.size || new Set(kept).size !== owned.size) {
      wrong.add(chain);
      noteDifference(
        differences,
        `${chain}: holds ${new Set(kept).size} of the member's ${owned.size} pieces${kept.length > new Set(kept).size ? ', some twice' : ''}`,
      );
    }
  }
  return { checked: expected.size, wrong };
}

export const feedListsState: KeptState = {
  name: 'feed-lists',
  describe:
    'The ranked lists the feeds page by _id (every ranking over all pieces, per main tag, per sub-tag and per artist, the artists by newest, fans and trend, each artist\u2019s Top 50) and each member\u2019s lists of their pieces, rebuilt from a sorted read of the pieces and members.',
  async check(): Promise<KeptStateReport> {
    const differences: string[] = [];
    const [build, shards] = await Promise.all([
      readById<BuildRecord>(FeedListModel, BUILD_ID),
      Promise.all(ARTIST_SHARDS.map((shard) => readById<BuiltArtists>(FeedListModel, builtArtistsId(shard)))),
    ]);
    const { lists, owners, top50 } = await expectedLists(build?.subTags);
    const compare = (list: string, stored: string[] | null, ids: string[]) => {
      if (!stored) noteDifference(differences, `${list}: never built`);
      else if (stored.join() !== ids.join())
        noteDifference(differences, `${list}: ${stored.length} pieces stored, ${ids.length} in the sorted read, or another order`);
    };
    for (const [list, { ids }] of lists) compare(list, await storedList(list), ids);
    // Every artist's lists and chart, and no lists for an artist with neither a listed piece nor a chart song left.
    const artists = new Set([...owners.keys(), ...top50.keys()]);
    for (const artist of artists) {
      const doc = await readById<ArtistLists>(FeedListModel, artistListsId(artist));
      for (const [kind, { ids }] of owners.get(artist) ?? []) compare(ownerListOf(kind, artist), await storedOwnerList(doc, artist, kind), ids);
      if ((doc?.top50 ?? []).join() !== (top50.get(artist) ?? []).join())
        noteDifference(differences, `${artistListsId(artist)}: its Top 50 is not the artist's songs by reactions`);
    }
    for (const artist of shards.flatMap((shard) => Object.keys(shard?.digests ?? {})))
      if (!artists.has(artist) && (await readById<ArtistLists>(FeedListModel, artistListsId(artist))))
        noteDifference(differences, `${artistListsId(artist)}: lists of an artist with no listed piece`);
    const chains = await checkOwnerChains(differences);
    return { checked: lists.size + artists.size + chains.checked, differences };
  },
  async rebuild(): Promise<KeptStateReport> {
    const differences: string[] = [];
    const { wrong } = await checkOwnerChains(differences);
    if (wrong.size) {
      // A member's list that misses pieces or has them out of order is written again whole, in the order of their ids.
      const expected = await expectedOwnerChains();
      const stored = await everyOwnerChainEntry();
      await deleteChainEntries(stored.filter((row) => wrong.has(row.chain)).map((row) => pieceChainEntryId(row.chain, row.n)));
      await rewriteOwnerChains(new Map([...wrong].map((chain) => [chain, expected.get(chain) ?? []])));
    }
    // Every artist's lists written again, whatever the digests kept say.
    const { lists, entries } = await buildFeedLists({ rewriteAll: true });
    publicPages.clear();
    return { checked: lists + wrong.size + entries, differences };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// The reader.

/** The changes since a build's mark, read once per mark within one request. */
export function changesReader() {
  const read = new Map<number, Promise<PieceChainEntry[]>>();
  return (mark: number) => {
    if (!read.has(mark)) read.set(mark, pieceChangesSince(mark, FRESH_CAP));
    return read.get(mark)!;
  };
}

interface RankedCursor {
  v: number;
  i: number;
  k: number | null;
}

const encodeRanked = (cursorList: string, at: RankedCursor, lastId: string) => encodePageCursor(cursorList, at, lastId);
const decodeRanked = (cursorList: string, cursor: string | undefined) =>
  decodePageCursor(cursorList, cursor, (at, id) => {
    const { v, i, k } = (at ?? {}) as Partial<RankedCursor>;
    const valid =
      Number.isSafeInteger(v) &&
      Number.isSafeInteger(i) &&
      i! >= 0 &&
      (k === null || Number.isFinite(k)) &&
      typeof id === 'string' &&
      Types.ObjectId.isValid(id) &&
      id.length === 24;
    return valid ? { v: v!, i: i!, last: { key: k!, id } } : null;
  });

export interface RankedSpec<D extends { _id: Types.ObjectId }> {
  /** The stored list (pieceListOf, artistListOf). */
  list: string;
  /** The name its cursors are bound to (lib/page-cursor.ts). */
  cursorList: string;
  keyOf(doc: D): number | null;
  belongs(doc: D): boolean;
  read(id: string): Promise<D | null>;
  /** The ids (of this list's documents) that the changes name. */
  freshIds(changes: PieceChainEntry[]): string[];
  changes(mark: number): Promise<PieceChainEntry[]>;
  /** Where the list is stored: its head and pages by `_id` unless told (an artist's lists: ownerStore). */
  store?: ListStore;
}

/** How a reader finds a built list: its head (version, length, mark) and its pages by number, each by `_id`. */
interface ListStore {
  head(): Promise<Pick<ListHead, 'version' | 'count' | 'mark'> | null>;
  page(version: number, p: number): Promise<ListPage | null>;
}

const headAndPages = (list: string): ListStore => ({
  head: () => readById<ListHead>(FeedListModel, headId(list)),
  page: (version, p) => readById<ListPage>(FeedListModel, pageId(list, version, p)),
});

/**
 * An artist's list of one kind: the artist's document is its head and holds its first page; its further pages are
 * page documents, kept one build after a newer version for the cursors given from them (the first page is the
 * document's current one only: a cursor into it from an earlier version goes on from the same index). The changes are taken from
 * the later of the document's mark and the last build's (which compared it and found it current). An artist without
 * a document (no listed piece at the last build) has an empty list: what they published since is merged in.
 */
function ownerStore(kind: FeedKind, artistId: string): ListStore {
  const doc = readById<ArtistLists>(FeedListModel, artistListsId(artistId));
  return {
    async head() {
      const [build, lists] = await Promise.all([readById<BuildRecord>(FeedListModel, BUILD_ID), doc]);
      if (!build && !lists) return null;
      const mark = Math.max(lists?.mark ?? 0, build?.mark ?? 0);
      return { version: lists?.version ?? build?.version ?? 0, count: lists?.lists[kind]?.count ?? 0, mark };
    },
    async page(version, p) {
      if (p > 0) return readById<ListPage>(FeedListModel, pageId(ownerListOf(kind, artistId), version, p));
      const lists = await doc;
      const list = lists?.lists[kind];
      return lists && list && lists.version === version ? { _id: lists._id, ids: list.ids, keys: list.keys, count: list.count, mark: lists.mark } : null;
    },
  };
}

/** Where a read of a ranked list starts: the build version and index of its next entry, and the last item given. */
interface RunStart {
  v: number;
  i: number;
  last: Position | null;
}

/** Up to `limit` items of a ranked list from a start, in order, each with its place (null for one changed since the build). */
interface RankedRun<D> {
  items: { doc: D; pos: Position; index: number | null }[];
  /** The build the run read (the start's while it is kept, else the current one, from the same index). */
  version: number;
  /** The index it started from in that build. */
  start: number;
  /** The index to go on from after the whole run. */
  resume: number;
  /** Whether anything is left after the run. */
  more: boolean;
}

/**
 * Up to `limit` items of a ranked list: the build's entries from the start's place, each read by `_id` and kept if it
 * still belongs, merged by key with the documents changed since the build. Reads the head, at most two stored pages,
 * at most MAX_SCANNED documents of the build and the changed ones (at most FRESH_CAP).
 */
async function rankedRun<D extends { _id: Types.ObjectId }>(spec: RankedSpec<D>, position: RunStart | null, limit: number): Promise<RankedRun<D>> {
  const store = spec.store ?? headAndPages(spec.list);
  const head = await store.head();
  let build = { version: head?.version ?? 0, count: head?.count ?? 0, mark: head?.mark ?? (await buildMark()) };
  const pages = new Map<number, Promise<ListPage | null>>();
  const pageOf = (version: number, p: number) => {
    if (!pages.has(p)) pages.set(p, store.page(version, p));
    return pages.get(p)!;
  };
  if (position && position.v !== build.version) {
    // The cursor's build while it is kept (the previous one is); else the current one, from the same index.
    const kept = await store.page(position.v, Math.floor(position.i / PAGE_IDS));
    if (kept) {
      build = { version: position.v, count: kept.count, mark: kept.mark };
      pages.set(Math.floor(position.i / PAGE_IDS), Promise.resolve(kept));
    }
  }

  const upper = position?.last ?? null;
  const freshIds = [...new Set(spec.freshIds(await spec.changes(build.mark)))];
  const changed = new Set(freshIds);
  const freshDocs: (D | null)[] = await Promise.all(freshIds.map((id) => spec.read(id)));
  const fresh = freshDocs
    .filter((doc): doc is D => doc !== null && spec.belongs(doc))
    .map((doc) => ({ doc, pos: { key: spec.keyOf(doc), id: String(doc._id) }, index: null }))
    .filter(({ pos }) => !upper || comesBefore(upper, pos))
    .sort((a, b) => inOrder(a.pos, b.pos));

  const buffer: { doc: D; pos: Position; index: number }[] = [];
  const start = position?.i ?? 0;
  let next = start;
  let scanned = 0;
  async function readAhead(count: number): Promise<void> {
    const indices = Array.from({ length: Math.min(count, build.count - next, MAX_SCANNED - scanned) }, (_, j) => next + j);
    next += indices.length;
    scanned += indices.length;
    const rows = await Promise.all(
      indices.map(async (index) => {
        const page = await pageOf(build.version, Math.floor(index / PAGE_IDS));
        const id = page?.ids[index % PAGE_IDS];
        if (!page || !id || changed.has(id)) return null;
        const doc: D | null = await spec.read(id);
        return doc && spec.belongs(doc) ? { doc, pos: { key: page.keys[index % PAGE_IDS] ?? null, id }, index } : null;
      }),
    );
    buffer.push(...rows.filter((row): row is NonNullable<typeof row> => row !== null));
  }
  const canRead = () => next < build.count && scanned < MAX_SCANNED;

  const items: RankedRun<D>['items'] = [];
  let f = 0;
  while (items.length < limit) {
    if (!buffer.length && canRead()) {
      await readAhead(limit - items.length + 1);
      continue;
    }
    const b = buffer[0];
    const c = fresh[f];
    if (!b && !c) break;
    if (b && (!c || comesBefore(b.pos, c.pos))) {
      items.push(b);
      buffer.shift();
    } else {
      items.push(c!);
      f += 1;
    }
  }
  // Whether anything is left: a few more entries read when none is at hand, so that the last page says it is the last.
  while (!buffer.length && f >= fresh.length && canRead()) await readAhead(limit + 1);
  const more = buffer.length > 0 || f < fresh.length || next < build.count;
  return { items, version: build.version, start, resume: buffer[0]?.index ?? next, more };
}

/** A page of a ranked list from a cursor it gave (see rankedRun). */
export async function rankedPage<D extends { _id: Types.ObjectId }>(spec: RankedSpec<D>, cursor: string | undefined, limit: number) {
  const position = decodeRanked(spec.cursorList, cursor);
  const run = await rankedRun(spec, position, limit);
  const at = run.items.at(-1)?.pos ?? position?.last ?? null;
  return {
    items: run.items.map((item) => item.doc),
    nextCursor: run.more && at ? encodeRanked(spec.cursorList, { v: run.version, i: run.resume, k: at.key }, at.id) : null,
  };
}

/** Where a merged page goes on: each list's build version and index, and the last item's key. */
interface MergedCursor {
  s: [number, number][];
  k: number | null;
}

const decodeMerged = (cursorList: string, cursor: string | undefined, lists: number) =>
  decodePageCursor(cursorList, cursor, (at, id) => {
    const { s, k } = (at ?? {}) as Partial<MergedCursor>;
    const valid =
      Array.isArray(s) &&
      s.length === lists &&
      s.every((place) => Array.isArray(place) && place.length === 2 && place.every((n) => Number.isSafeInteger(n) && n >= 0)) &&
      (k === null || Number.isFinite(k)) &&
      typeof id === 'string' &&
      Types.ObjectId.isValid(id) &&
      id.length === 24;
    return valid ? { s, last: { key: k ?? null, id } } : null;
  });

/**
 * One page over several ranked lists of the same order (the feeds of several sub-tags at once), merged by key: each
 * list gives up to `limit` items from its own place (see rankedRun), and the page takes the first `limit` of them all
 * in order, each document once. Its cursor holds each list's place after what the page took from it, so the work is
 * that of one page per list, whatever the number of pieces.
 */
export async function mergedRankedPage<D extends { _id: Types.ObjectId }>(
  specs: RankedSpec<D>[],
  cursorList: string,
  cursor: string | undefined,
  limit: number,
) {
  const position = decodeMerged(cursorList, cursor, specs.length);
  const upper = position?.last ?? null;
  const runs = await Promise.all(specs.map((spec, j) => rankedRun(spec, position ? { v: position.s[j]![0], i: position.s[j]![1], last: upper } : null, limit)));
  const taken = runs.map(() => 0);
  const places = runs.map((run): [number, number] => [run.version, run.start]);
  const items: D[] = [];
  const given = new Set<string>();
  let last: Position | null = upper;
  while (items.length < limit) {
    let best = -1;
    runs.forEach((run, j) => {
      const item = run.items[taken[j]!];
      if (item && (best < 0 || comesBefore(item.pos, runs[best]!.items[taken[best]!]!.pos))) best = j;
    });
    if (best < 0) break;
    const item = runs[best]!.items[taken[best]!]!;
    taken[best]! += 1;
    if (item.index !== null) places[best]![1] = item.index + 1;
    if (given.has(item.pos.id)) continue;
    given.add(item.pos.id);
    items.push(item.doc);
    last = item.pos;
  }
  const more = runs.some((run, j) => taken[j]! < run.items.length || run.more);
  return {
    items,
    nextCursor: more && last ? encodePageCursor(cursorList, { s: places, k: last.key } satisfies MergedCursor, last.id) : null,
  };
}

/**
 * Whether the sub-tags' and the artists' lists can be read: not when the last build was made before the feeds kept
 * them (a database of an older release, until the rankings job's next build), where those feeds use the sorted read.
 */
export async function keptListsBuilt(): Promise<{ subTags: boolean; owners: boolean }> {
  const build = await readById<BuildRecord>(FeedListModel, BUILD_ID);
  return { subTags: !build || Array.isArray(build.subTags), owners: !build || build.artistLists === true };
}

/** The last build's mark (0 before any): where a list never built takes its changes from. */
async function buildMark(): Promise<number> {
  return (await readById<BuildRecord>(FeedListModel, BUILD_ID))?.mark ?? 0;
}

const readPiece = (id: string) => contentReads.byId<ContentDoc>(new Types.ObjectId(id));
const readArtist = (id: string) => userReads.byId<UserDoc>(new Types.ObjectId(id));

/**
 * A ranking over all pieces, one main tag (`type`) or one sub-tag (`subTag`, with `type` when both were asked: a
 * piece must then be of both). A sub-tag's list holds its pieces of every type, so the type is checked per piece.
 */
export const pieceSpec = (
  kind: FeedKind,
  type: TagType | undefined,
  cursorList: string,
  changes: (mark: number) => Promise<PieceChainEntry[]>,
  subTag?: string,
): RankedSpec<ContentDoc> => ({
  list: subTag === undefined ? pieceListOf(kind, type) : subTagListOf(kind, subTag),
  cursorList,
  keyOf: pieceKeyOf(kind),
  belongs: pieceBelongs(kind, type, subTag),
  read: readPiece,
  freshIds: (changes) => changes.map((change) => String(change.contentId)),
  changes,
});

/**
 * A ranking over one artist's pieces (with a main tag or one sub-tag too when asked: a piece must then be of them):
 * the artist's list, with the artist's pieces changed since the build.
 */
export const ownerPieceSpec = (
  kind: FeedKind,
  artistId: string,
  filters: { type?: TagType; subTag?: string },
  cursorList: string,
  changes: (mark: number) => Promise<PieceChainEntry[]>,
): RankedSpec<ContentDoc> => {
  const belongs = pieceBelongs(kind, filters.type, filters.subTag);
  return {
    list: ownerListOf(kind, artistId),
    cursorList,
    keyOf: pieceKeyOf(kind),
    belongs: (piece) => String(piece.ownerId) === artistId && belongs(piece),
    read: readPiece,
    // A change names the piece's owner as of the change (the new one when it was handed over).
    freshIds: (changes) => changes.filter((change) => String(change.ownerId) === artistId).map((change) => String(change.contentId)),
    changes,
    store: ownerStore(kind, artistId),
  };
};

export const artistSpec = (order: ArtistOrder, cursorList: string, changes: (mark: number) => Promise<PieceChainEntry[]>): RankedSpec<UserDoc> => ({
  list: artistListOf(order),
  cursorList,
  keyOf: artistKeyOf(order),
  belongs: artistBelongs,
  read: readArtist,
  freshIds: (changes) => changes.map((change) => String(change.ownerId)),
  changes,
});

/** An artist's Top 50: their chart list as built, with the songs changed since, read by `_id` and ordered by reactions now. */
export async function top50Of(artistId: Types.ObjectId): Promise<ContentDoc[]> {
  const build = await readById<BuildRecord>(FeedListModel, BUILD_ID);
  // The artist's lists of the current build; a build from before them kept the chart alone.
  const chart = build?.artistLists
    ? (await readById<ArtistLists>(FeedListModel, artistListsId(String(artistId))))?.top50
    : (await readById<{ _id: string; ids: string[] }>(FeedListModel, legacyTop50Id(artistId)))?.ids;
  const changed = await pieceChangesSince(build?.mark ?? 0, FRESH_CAP);
  const ids = [...new Set([...(chart ?? []), ...changed.map((change) => String(change.contentId))])];
  const songs = (await Promise.all(ids.map(readPiece))).filter((doc): doc is ContentDoc => doc !== null && isChartSongOf(String(artistId))(doc as ListedPiece));
  return songs.sort((a, b) => byReactions(a, b)).slice(0, TOP_50);
}
