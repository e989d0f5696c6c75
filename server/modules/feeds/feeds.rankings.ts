/**
 * The feeds' rankings, defined here and nowhere else (README "Rankings"). Every ranking is one numeric key
 * on the piece, kept up to date when something changes (publish, re-post, reaction, the refresh job), so a
 * feed is an indexed keyset read of `(key desc, _id desc)` over the listed pieces:
 *
 * - featured: pieces an admin re-posted, newest re-post first, then every other piece, newest first.
 * - popular: most reactions of all time (`reactedCount`).
 * - trending: most reactions in the last 7 days (`trendScore`).
 * - radar (On the Radar): pieces of the last 30 days by artists with fewer than 100 followers; most
 *   reactions in the last 7 days first, then newest. Other pieces are not on the radar (`radarScore` 0).
 * - new: newest first (`_id`).
 *
 * The counts behind them (a piece's reactions, plays and scores, an owner's trend score and listed pieces)
 * are kept totals, bumped as things happen so that a feed reads one number. On FerretDB concurrent bumps
 * of one document can be lost, and on any database a process can die between the fact and its bump.
 *
 * The rankings job (`updateRankings`, every 5 minutes) sets the reaction totals from the knacks themselves, reading
 * only what arrived since its last run: the ledger's journal from its checkpoint (each knack once, keyed by its
 * journal number), and the pieces whose scores the passing of time changes (those knacked on the day that just left
 * the 7-day window, those published on the day that just left the 30-day radar window: day indexes it keeps). Its
 * work grows with what changed, not with the ledger. It then builds the feeds' ranked lists (feeds.lists.ts).
 *
 * `refreshRankings` is the full recount (`npm run rebuild -- rankings`): every total from every fact (knack entries
 * in the ledger up to the journal checkpoint it sets, embed plays, comments, listed pieces, follows), the job's own
 * counts and day indexes, then the lists. The totals the job does not keep (comments, plays, follows, listed pieces:
 * bumped as they happen, without a journal to follow) are repaired only by it. Before it counts, it puts back under
 * their keys the facts that older code keyed by an id spelled in capitals (follows, embed plays, and the blocks and
 * thread sides of messages), each a repair that finds nothing once done.
 */
import { Schema, Types, model, type AnyBulkWriteOperation } from 'mongoose';
import type { KeptState, KeptStateReport } from '../../lib/kept-state';
import { noteDifference } from '../../lib/kept-state';
import { publicPages } from '../../lib/public-pages';
import { anyOf, ours, readById } from '../../lib/query';
import {
  RADAR_WINDOW_DAYS,
  radarScoreOf,
  setPieceTotals,
  type ContentDoc,
  type PieceTotals,
  contentReads,
  pieceChangesBetween,
  pieceChangesEnd,
} from '../contents';
import { checkpointOf, journalEnd, knackFacts, readJournal, saveCheckpoint, type LedgerEntryDoc } from '../ledger';
import { embedPlayCounts, repairEmbedPlayKeys } from '../share';
import { followTotals, repairFollowKeys } from '../follows';
import { repairMessageKeys } from '../messages';
import { commentTotals } from '../comments';
import { setMemberTotals, type MemberTotals, type UserDoc, userReads } from '../users';
import { buildFeedLists } from './feeds.lists';
import { ReactionDayModel, type ReactionDayDoc } from './reactions.model';
import { utcDayOf } from '../../lib/calendar';

export { RANKINGS, type FeedKind } from './feeds.kinds';

export const TREND_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

const dayOf = utcDayOf;

const add = (counts: Map<string, number>, key: string, n = 1) => counts.set(key, (counts.get(key) ?? 0) + n);

type Piece = Pick<ContentDoc, '_id' | 'ownerId' | 'uploadedAt' | 'listed' | 'reactedCount' | 'commentsCount' | 'trendScore' | 'radarScore' | 'playCount'>;

/** The journal consumer's name: its checkpoint in the ledger's journal. */
export const RANKINGS_CONSUMER = 'rankings';

/**
 * What the job keeps to count from what changed (written by the job alone, under its lease, read by `_id`):
 * - `piece:{contentId}`: the piece's knacks counted, and `through`, the journal number of the last one counted (a
 *   knack handed again after a crash, at most its batch, has a number at or below it and is not counted twice);
 * - `day:{yyyy-mm-dd}`: the pieces knacked that day (for the days still in the 7-day window): when the day leaves
 *   the window, these are the pieces whose trend falls;
 * - `uploads:{yyyy-mm-dd}`: the pieces published that day (for the days still in the 30-day radar window);
 * - `owner:{ownerId}`: the owner's pieces with knacks in the window and each one's count: the owner's trend is their
 *   sum, set whole, so a run handed the same knacks again sets the same figure;
 * - `window`: the first day of the trend window and the radar's boundary day at the last run;
 * - `changes`: the number of the last piece change (contents' changes chain) read for the uploads' index.
 */
const rankingStateSchema = new Schema({ _id: { type: String, required: true } }, { strict: false, versionKey: false });
export const RankingStateModel = model('RankingState', rankingStateSchema, 'ranking_state');

interface PieceCount {
  _id: string;
  reacted: number;
  through: number;
}
interface DayIndex {
  _id: string;
  contentIds: string[];
}
interface OwnerWeeks {
  _id: string;
  weeks: Record<string, number>;
}
interface WindowState {
  _id: string;
  trendSince: string;
  radarDay: string;
}

const pieceCountId = (contentId: unknown) => `piece:${String(contentId)}`;
const dayIndexId = (day: string) => `day:${day}`;
const uploadsIndexId = (day: string) => `uploads:${day}`;
const ownerWeeksId = (ownerId: unknown) => `owner:${String(ownerId)}`;
const WINDOW_ID = 'window';
const CHANGES_ID = 'changes';

const trendSinceOf = (now: Date) => dayOf(new Date(now.getTime() - (TREND_WINDOW_DAYS - 1) * DAY_MS));
const radarDayOf = (now: Date) => dayOf(new Date(now.getTime() - RADAR_WINDOW_DAYS * DAY_MS));
/** The days from `from` up to `to` (both included), in order. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = new Date(`${from}T00:00:00Z`).getTime(); dayOf(new Date(at)) <= to && days.length < 400; at += DAY_MS) days.push(dayOf(new Date(at)));
  return days;
}

/** A state document as written whole. */
type StateDoc = { _id: string; [field: string]: unknown };

async function writeState<T extends { _id: string }>(docs: T[]): Promise<void> {
  for (let i = 0; i < docs.length; i += 1000)
    await RankingStateModel.bulkWrite(
      docs.slice(i, i + 1000).map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } })),
      { ordered: false },
    );
}
const readState = <T>(id: string) => readById<T>(RankingStateModel, id);

type JobPiece = Pick<ContentDoc, '_id' | 'ownerId' | 'uploadedAt' | 'reactedCount' | 'trendScore' | 'radarScore'>;
const JOB_PIECE_FIELDS = { ownerId: 1, uploadedAt: 1, reactedCount: 1, trendScore: 1, radarScore: 1 } as const;
const readJobPiece = (id: string) => contentReads.byId<JobPiece>(new Types.ObjectId(id), JOB_PIECE_FIELDS);

/** Adds ids to day indexes (set whole: a repeat adds nothing). */
async function addToIndexes(add: Map<string, Set<string>>): Promise<void> {
  if (!add.size) return;
  const docs = await Promise.all(
    [...add].map(async ([id, ids]) => {
      const held = await readState<DayIndex>(id);
      const all = new Set([...(held?.contentIds ?? []), ...ids]);
      return all.size === (held?.contentIds.length ?? -1) ? null : { _id: id, contentIds: [...all] };
    }),
  );
  await writeState(docs.filter((doc): doc is DayIndex => doc !== null));
}

/** Counts a batch of journal entries' knacks into the pieces' counts and reaction days; answers the pieces touched. */
async function countKnacks(entries: LedgerEntryDoc[], since: string): Promise<Set<string>> {
  const knacks = entries.filter((entry) => entry.kind === 'knack' && entry.contentId && typeof entry.seq === 'number');
  const touched = new Set<string>();
  if (!knacks.length) return touched;
  const pieceIds = [...new Set(knacks.map((knack) => String(knack.contentId)))];
  const pieces = new Map(
    (await Promise.all(pieceIds.map(readJobPiece))).filter((piece): piece is JobPiece => piece !== null).map((piece) => [String(piece._id), piece]),
  );

  // The pieces' totals: each knack once, by its journal number.
  const counts = new Map<string, PieceCount>();
  await Promise.all(
    [...pieces.keys()].map(async (id) => counts.set(id, (await readState<PieceCount>(pieceCountId(id))) ?? { _id: pieceCountId(id), reacted: 0, through: 0 })),
  );
  const days = new Map<string, ReactionDayDoc & { through?: number }>();
  const dayKeys = [...new Set(knacks.filter((knack) => pieces.has(String(knack.contentId))).map((knack) => `${String(knack.contentId)}:${dayOf(knack.at)}`))];
  await Promise.all(dayKeys.map(async (key) => days.set(key, (await readById<ReactionDayDoc & { through?: number }>(ReactionDayModel, key)) ?? null!)));

  const countedThrough = new Map([...counts].map(([id, count]) => [id, count.through]));
  const dayThrough = new Map([...days].map(([key, day]) => [key, day?.through ?? 0]));
  const changedDays = new Map<string, ReactionDayDoc & { through: number }>();
  const newInWindow = new Map<string, Set<string>>();
  for (const knack of knacks) {
    const id = String(knack.contentId);
    const piece = pieces.get(id);
    if (!piece) continue; // a removed piece
    const seq = knack.seq!;
    const count = counts.get(id)!;
    if (seq > countedThrough.get(id)!) {
      count.reacted += 1;
      count.through = Math.max(count.through, seq);
      touched.add(id);
    }
    const day = dayOf(knack.at);
    const key = `${id}:${day}`;
    if (seq > dayThrough.get(key)!) {
      const held = changedDays.get(key) ?? days.get(key);
      const next = { _id: key, contentId: piece._id, ownerId: piece.ownerId, day, count: (held?.count ?? 0) + 1, through: Math.max(held?.through ?? 0, seq) };
      changedDays.set(key, next);
      touched.add(id);
      if (day >= since) newInWindow.set(dayIndexId(day), (newInWindow.get(dayIndexId(day)) ?? new Set()).add(id));
    }
  }
  // The day indexes first, then the counts: a crash between them leaves an index holding a piece more (harmless),
  // never a counted knack whose day would not be found when it leaves the window.
  await addToIndexes(newInWindow);
  if (changedDays.size)
    await ReactionDayModel.bulkWrite(
      [...changedDays.values()].map((day) => ({ replaceOne: { filter: { _id: day._id }, replacement: day, upsert: true } })),
      { ordered: false },
    );
  await writeState([...counts.values()].filter((count) => touched.has(count._id.slice('piece:'.length))));
  return touched;
}

/**
 * Sets the kept totals of `ids` from the job's counts: reactions, the 7-day trend (the reaction days in the window,
 * read by `_id`), the radar score, and their owners' trend. Answers how many pieces and members changed.
 */
async function settlePieces(ids: Set<string>, now: Date): Promise<{ contents: number; users: number }> {
  const windowDays = daysBetween(trendSinceOf(now), dayOf(now));
  let contents = 0;
  let users = 0;
  const all = [...ids];
  for (let i = 0; i < all.length; i += 200) {
    const slice = all.slice(i, i + 200);
    const pieces = (await Promise.all(slice.map(readJobPiece))).filter((piece): piece is JobPiece => piece !== null);
    const owners = [...new Set(pieces.map((piece) => String(piece.ownerId)))];
    const [counts, weeks, followers, ownerWeeks] = await Promise.all([
      Promise.all(pieces.map((piece) => readState<PieceCount>(pieceCountId(piece._id)))),
      Promise.all(
        pieces.map(async (piece) => {
          const days = await Promise.all(windowDays.map((day) => readById<ReactionDayDoc>(ReactionDayModel, `${String(piece._id)}:${day}`, { count: 1 })));
          return days.reduce((sum, day) => sum + (day?.count ?? 0), 0);
        }),
      ),
      Promise.all(
        owners.map(
          async (owner) => [owner, (await userReads.byId<Pick<UserDoc, 'followersCount'>>(owner, { followersCount: 1 }))?.followersCount ?? 0] as const,
        ),
      ),
      Promise.all(owners.map(async (owner) => (await readState<OwnerWeeks>(ownerWeeksId(owner))) ?? { _id: ownerWeeksId(owner), weeks: {} })),
    ]);
    const followersOf = new Map(followers);
    const weeksOf = new Map(ownerWeeks.map((doc) => [doc._id.slice('owner:'.length), doc]));
    const updates: { contentId: Types.ObjectId; totals: PieceTotals }[] = [];
    pieces.forEach((piece, j) => {
      const id = String(piece._id);
      const reactedCount = counts[j]?.reacted ?? 0;
      const trendScore = weeks[j]!;
      const radarScore = radarScoreOf(piece.uploadedAt, followersOf.get(String(piece.ownerId)) ?? 0, trendScore, now);
      if (reactedCount !== piece.reactedCount || trendScore !== piece.trendScore || radarScore !== piece.radarScore)
        updates.push({ contentId: piece._id, totals: { reactedCount, trendScore, radarScore } });
      const owner = weeksOf.get(String(piece.ownerId))!;
      if (trendScore) owner.weeks[id] = trendScore;
      else delete owner.weeks[id];
    });
    await setPieceTotals(updates);
    await writeState([...weeksOf.values()]);
    const trends = await Promise.all(
      [...weeksOf].map(async ([owner, doc]) => {
        const trendScore = Object.values(doc.weeks).reduce((sum, n) => sum + n, 0);
        const kept = (await userReads.byId<Pick<UserDoc, 'trendScore'>>(owner, { trendScore: 1 }))?.trendScore;
        return kept === trendScore ? null : { userId: owner, totals: { trendScore } };
      }),
    );
    const memberUpdates = trends.filter((update): update is NonNullable<typeof update> => update !== null);
    await setMemberTotals(memberUpdates);
    contents += updates.length;
    users += memberUpdates.length;
  }
  return { contents, users };
}

/** Indexes the pieces published since the job's last run by their day, while that day is in the radar's window. */
async function indexUploads(now: Date): Promise<void> {
  const from = ((await readState<{ n: number }>(CHANGES_ID))?.n ?? 0) + 1;
  const end = await pieceChangesEnd();
  const radarDay = radarDayOf(now);
  for (let start = from; start <= end; start += 500) {
    const to = Math.min(end, start + 499);
    const changes = await pieceChangesBetween(start, to);
    const pieces = await Promise.all([...new Set(changes.map((change) => String(change.contentId)))].map(readJobPiece));
    const add = new Map<string, Set<string>>();
    for (const piece of pieces) {
      if (!piece?.uploadedAt || dayOf(piece.uploadedAt) < radarDay) continue;
      const id = uploadsIndexId(dayOf(piece.uploadedAt));
      add.set(id, (add.get(id) ?? new Set()).add(String(piece._id)));
    }
    await addToIndexes(add);
    await writeState<StateDoc>([{ _id: CHANGES_ID, n: to }]);
  }
}

/**
 * The rankings job: the knacks that arrived since its checkpoint counted once each, the pieces whose window moved
 * settled, then the ranked lists built. Answers what it changed. Runs under a lease (one run at a time).
 *
 * How the time-decayed scores decay without rereading the ledger: a piece's trend is the sum of its reaction days in
 * the last 7 days (read by `_id`, 7 reads). It changes only when the piece is knacked (the knack is in the journal)
 * or when one of its days leaves the window; the job keeps, per day still in the window, the pieces knacked that day,
 * and when the window's first day moves past a day it settles that day's pieces. Likewise the radar: a piece leaves
 * it 30 days after it was published, so the job keeps the pieces published per day of the last 30 and settles them
 * as their day reaches the boundary.
 */
export async function updateRankings(
  now = new Date(),
): Promise<{ knacks: number; contents: number; users: number; lists: number; ms: { journal: number; settle: number; lists: number } }> {
  const started = Date.now();
  const since = trendSinceOf(now);
  const radarDay = radarDayOf(now);
  const touched = new Set<string>();
  const pass = await readJournal(RANKINGS_CONSUMER, async (entries) => {
    for (const id of await countKnacks(entries, since)) touched.add(id);
  });
  await indexUploads(now);

  const window = await readState<WindowState>(WINDOW_ID);
  const leaving = window ? daysBetween(window.trendSince, since).filter((day) => day < since) : [];
  const radarDays = window ? daysBetween(window.radarDay, radarDay) : [radarDay];
  const indexes = await Promise.all([...leaving.map(dayIndexId), ...radarDays.map(uploadsIndexId)].map((id) => readState<DayIndex>(id)));
  for (const index of indexes) for (const id of index?.contentIds ?? []) touched.add(id);

  const counted = Date.now();
  const settled = await settlePieces(touched, now);
  await writeState<StateDoc>([{ _id: WINDOW_ID, trendSince: since, radarDay }]);
  // Days that left their window are settled: their indexes are no longer read.
  const done = [...leaving.map(dayIndexId), ...radarDays.filter((day) => day < radarDay).map(uploadsIndexId)];
  if (done.length)
    await RankingStateModel.bulkWrite(
      done.map((id) => ({ deleteOne: { filter: { _id: id } } })),
      { ordered: false },
    );

  const listsFrom = Date.now();
  const lists = await buildFeedLists();
  publicPages.clear();
  const ms = { journal: counted - started, settle: listsFrom - counted, lists: Date.now() - listsFrom };
  return { knacks: pass.entries, ...settled, lists: lists.lists, ms };
}

/** What the full recount finds, and (when `write`) sets. */
interface Recount {
  contents: number;
  users: number;
  days: number;
  differences: string[];
  checked: number;
}

/**
 * The full recount: every kept total from the facts, which also moves reactions out of the trending window after 7
 * days and pieces off the radar after 30. With `write`, sets only what differs, then the job's own counts, indexes and
 * checkpoint (so that the job goes on from here), then the lists; without, lists the differences of the totals the
 * job keeps and writes nothing. Idempotent; meant for a quiet database (or under the job's lease).
 */
async function recount(now: Date, write: boolean): Promise<Recount> {
  // Facts that older code keyed by an id spelled in capitals are put back under their keys first, so that each is
  // counted once.
  if (write) await Promise.all([repairFollowKeys(), repairEmbedPlayKeys(), repairMessageKeys()]);
  const since = trendSinceOf(now);
  // The knacks up to a journal number: with `write`, the journal's end now (the job goes on after it); for a check,
  // the job's checkpoint (what it has counted).
  const mark = write ? await journalEnd() : await checkpointOf(RANKINGS_CONSUMER);
  const [allKnacks, plays, comments, pieces] = await Promise.all([
    knackFacts(),
    write ? embedPlayCounts() : Promise.resolve(new Map<string, number>()),
    write ? commentTotals() : Promise.resolve(new Map<string, number>()),
    contentReads.many<Piece>(
      {},
      {
        projection: { ownerId: 1, uploadedAt: 1, listed: 1, reactedCount: 1, commentsCount: 1, trendScore: 1, radarScore: 1, playCount: 1 },
      },
    ),
  ]);
  const knacks = allKnacks.filter((knack) => typeof knack.seq !== 'number' || knack.seq <= mark);
  const ownerOf = new Map(pieces.map((piece) => [String(piece._id), String(piece.ownerId)]));

  const reacted = new Map<string, number>();
  const week = new Map<string, number>();
  const perDay = new Map<string, number>();
  for (const { contentId, at } of knacks) {
    const id = String(contentId);
    if (!ownerOf.has(id)) continue; // a removed piece
    const day = dayOf(at);
    add(reacted, id);
    add(perDay, `${id}:${day}`);
    if (day >= since) add(week, id);
  }
  const ownerWeek = new Map<string, number>();
  const listedOf = new Map<string, number>();
  const ownerPieces = new Map<string, Record<string, number>>();
  for (const piece of pieces) {
    const owner = String(piece.ownerId);
    const inWeek = week.get(String(piece._id)) ?? 0;
    add(ownerWeek, owner, inWeek);
    add(listedOf, owner, piece.listed ? 1 : 0);
    if (inWeek) ownerPieces.set(owner, { ...(ownerPieces.get(owner) ?? {}), [String(piece._id)]: inWeek });
  }

  const follows = await followTotals();
  const members = [...new Set([...listedOf.keys(), ...follows.keys()])].map((id) => new Types.ObjectId(id));
  const owners = await userReads.many<Pick<UserDoc, '_id' | 'followersCount' | 'followingsCount' | 'trendScore' | 'contentsCount'>>(
    ours({
      $or: [
        { _id: anyOf(members) },
        { trendScore: { $gt: 0 } },
        { contentsCount: { $ne: 0 } },
        { followersCount: { $ne: 0 } },
        { followingsCount: { $ne: 0 } },
      ],
    }),
    { projection: { followersCount: 1, followingsCount: 1, trendScore: 1, contentsCount: 1 } },
  );
  // A check compares radar scores with the followers kept on the members (what the job reads), not a recount of follows.
  const keptFollowers = new Map(owners.map((user) => [String(user._id), user.followersCount]));
  const followersOf = (id: string) => (write ? (follows.get(id)?.followersCount ?? 0) : (keptFollowers.get(id) ?? 0));
  const differences: string[] = [];

  const contentUpdates: { contentId: Types.ObjectId; totals: PieceTotals }[] = [];
  for (const piece of pieces) {
    const id = String(piece._id);
    const kept = { reactedCount: reacted.get(id) ?? 0, commentsCount: comments.get(id) ?? 0, trendScore: week.get(id) ?? 0, playCount: plays.get(id) ?? 0 };
    const radarScore = radarScoreOf(piece.uploadedAt, followersOf(String(piece.ownerId)), kept.trendScore, now);
    const jobSame = kept.reactedCount === piece.reactedCount && kept.trendScore === piece.trendScore && radarScore === piece.radarScore;
    if (!jobSame)
      noteDifference(
        differences,
        `piece ${id}: reactions/trend/radar kept ${piece.reactedCount}/${piece.trendScore}/${piece.radarScore}, recounted ${kept.reactedCount}/${kept.trendScore}/${radarScore}`,
      );
    const same = jobSame && kept.commentsCount === (piece.commentsCount ?? 0) && kept.playCount === (piece.playCount ?? 0);
    if (!same) contentUpdates.push({ contentId: piece._id, totals: { ...kept, radarScore } });
  }

  const userUpdates: { userId: Types.ObjectId; totals: MemberTotals }[] = [];
  for (const user of owners) {
    const id = String(user._id);
    const kept = {
      trendScore: ownerWeek.get(id) ?? 0,
      contentsCount: listedOf.get(id) ?? 0,
      followersCount: followersOf(id),
      followingsCount: follows.get(id)?.followingsCount ?? 0,
    };
    if (kept.trendScore !== user.trendScore) noteDifference(differences, `member ${id}: trend kept ${user.trendScore}, recounted ${kept.trendScore}`);
    const same =
      kept.trendScore === user.trendScore &&
      kept.contentsCount === user.contentsCount &&
      kept.followersCount === user.followersCount &&
      kept.followingsCount === user.followingsCount;
    if (!same) userUpdates.push({ userId: user._id, totals: kept });
  }

  if (!write) {
    await compareJobCounts(reacted, perDay, differences);
    return { contents: 0, users: 0, days: 0, differences, checked: pieces.length + owners.length + perDay.size };
  }
  await setPieceTotals(contentUpdates);
  await setMemberTotals(userUpdates);
  const days = await refreshReactionDays(perDay, ownerOf, mark);

  // The job's own counts and indexes, as of `mark`, and its checkpoint there.
  await RankingStateModel.deleteMany({});
  const radarDay = radarDayOf(now);
  const dayIndex = new Map<string, string[]>();
  for (const key of perDay.keys()) {
    const [id, day] = key.split(':') as [string, string];
    if (day >= since) dayIndex.set(day, [...(dayIndex.get(day) ?? []), id]);
  }
  const uploads = new Map<string, string[]>();
  for (const piece of pieces) {
    const day = piece.uploadedAt ? dayOf(piece.uploadedAt) : '';
    if (day >= radarDay) uploads.set(day, [...(uploads.get(day) ?? []), String(piece._id)]);
  }
  await writeState<StateDoc>([
    ...[...reacted].map(([id, n]) => ({ _id: pieceCountId(id), reacted: n, through: mark })),
    ...[...dayIndex].map(([day, contentIds]) => ({ _id: dayIndexId(day), contentIds })),
    ...[...uploads].map(([day, contentIds]) => ({ _id: uploadsIndexId(day), contentIds })),
    ...[...ownerPieces].map(([owner, weeks]) => ({ _id: ownerWeeksId(owner), weeks })),
    { _id: WINDOW_ID, trendSince: since, radarDay },
    { _id: CHANGES_ID, n: await pieceChangesEnd() },
  ]);
  await saveCheckpoint(RANKINGS_CONSUMER, mark);
  return { contents: contentUpdates.length, users: userUpdates.length, days, differences, checked: pieces.length + owners.length + perDay.size };
}

/** Compares the job's own counts (per piece, per reaction day) with the recount. */
async function compareJobCounts(reacted: Map<string, number>, perDay: Map<string, number>, differences: string[]): Promise<void> {
  const [counts, days] = await Promise.all([
    RankingStateModel.find(ours({ _id: { $regex: '^piece:' } }), { reacted: 1 }).lean<PieceCount[]>(),
    ReactionDayModel.find({}, { count: 1 }).lean<Pick<ReactionDayDoc, '_id' | 'count'>[]>(),
  ]);
  const countOf = new Map(counts.map((count) => [count._id.slice('piece:'.length), count.reacted]));
  for (const id of new Set([...reacted.keys(), ...countOf.keys()])) {
    const counted = countOf.get(id) ?? 0;
    const held = reacted.get(id) ?? 0;
    if (counted !== held) noteDifference(differences, `piece ${id}: the job counted ${counted} knacks, the ledger holds ${held}`);
  }
  const dayOf_ = new Map(days.map((day) => [day._id, day.count]));
  for (const [key, n] of perDay)
    if ((dayOf_.get(key) ?? 0) !== n) noteDifference(differences, `reaction day ${key}: kept ${dayOf_.get(key) ?? 0}, recounted ${n}`);
  for (const [key, n] of dayOf_) if (!perDay.has(key) && n) noteDifference(differences, `reaction day ${key}: kept ${n}, no knack that day`);
}

/**
 * The full recount (`npm run rebuild -- rankings`, and tests): every total from every fact, then the lists. Answers
 * how many pieces, members and reaction days it changed, and how many lists it built.
 */
export async function refreshRankings(now = new Date()): Promise<{ contents: number; users: number; days: number; lists: number }> {
  const { contents, users, days } = await recount(now, true);
  // The ranked lists the feeds page by key, from the totals just set.
  const lists = await buildFeedLists();
  publicPages.clear();
  return { contents, users, days, lists: lists.lists };
}

/** The rankings state's check as of `now` (tests move the clock to see the windows move). */
export async function checkRankings(now = new Date()): Promise<KeptStateReport> {
  const { differences, checked } = await recount(now, false);
  return { checked, differences };
}

export const rankingsState: KeptState = {
  name: 'rankings',
  describe:
    'The totals the rankings job keeps (each piece\u2019s reactions, 7-day trend and radar score, each owner\u2019s trend, the reactions per piece and day, the job\u2019s own counts), recounted from the knack entries up to its journal checkpoint; the rebuild also recounts comments, embed plays, follows and listed pieces, and the job\u2019s day indexes.',
  check: () => checkRankings(),
  async rebuild(): Promise<KeptStateReport> {
    const { contents, users, days, differences } = await recount(new Date(), true);
    return { checked: contents + users + days, differences };
  },
};

/** Makes the reactions-per-day documents match the knack entries' days (`perDay`: `{contentId}:{day}` -> count), counted through journal number `through`. */
async function refreshReactionDays(perDay: Map<string, number>, ownerOf: Map<string, string>, through: number): Promise<number> {
  const kept = new Map(
    (await ReactionDayModel.find({}, { count: 1, through: 1 }).lean<(Pick<ReactionDayDoc, '_id' | 'count'> & { through?: number })[]>()).map((day) => [
      day._id,
      day,
    ]),
  );
  const updates: AnyBulkWriteOperation<ReactionDayDoc>[] = [];
  for (const [dayId, count] of perDay) {
    if (kept.get(dayId)?.count === count && kept.get(dayId)?.through === through) continue;
    const [contentId, day] = dayId.split(':') as [string, string];
    const fields = { contentId: new Types.ObjectId(contentId), ownerId: new Types.ObjectId(ownerOf.get(contentId)!), day, count, through };
    updates.push({ updateOne: { filter: { _id: dayId }, update: { $set: fields }, upsert: true } });
  }
  for (const dayId of kept.keys()) if (!perDay.has(dayId)) updates.push({ deleteOne: { filter: { _id: dayId } } });
  if (updates.length) await ReactionDayModel.bulkWrite(updates, { ordered: false });
  return updates.length;
}
