/**
 * Comments and shares on pieces: writing, removing, and the lists (a piece's, a member's, the feed of followed
 * artists' pieces, and every comment for admins).
 *
 * A piece's comments are a numbered chain (lib/numbered-chain.ts): the next number is taken by its insert, so
 * comments written at once, in any process, each get their own, and a page at any depth is read by `_id`. The
 * piece's comments count is kept on the piece (contents' recordComment) and recounted by the rankings job from
 * the comments themselves; a removal is claimed by an insert, so that two at once take the count down once.
 */
import { Types } from 'mongoose';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { AuthContext } from '../../lib/auth-context';
import { isOwnerOrAdmin, requireAdmin } from '../../lib/permissions';
import { MESSAGES, LIMITS } from '../../../generated/validation';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { numberedChains } from '../../lib/numbered-chain';
import { afterNewest, decodeNewestCursor, NEWEST_FIRST, newestPage } from '../../lib/newest-first';
import { decodePageCursor, encodePageCursor } from '../../lib/page-cursor';
import { clearPublicResponses } from '../../lib/public-responses';
import { insertWhole, ours, readById } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import type { Schemas } from '../../lib/openapi-types';
import { canView, contentReads, recordComment, setPieceTotals, type ContentDoc } from '../contents';
import { latestFollowed, stillFollowed } from '../follows';
import { userReads, type UserDoc } from '../users';
import { CommentModel, CommentRemovalModel, type CommentDoc } from './comments.model';
import { commentChanges, markCommentAdd, markCommentRemoval } from './comments.pending';
import { chainEnd, FEED_ARTISTS, feedPage, listComment, memberCommentsPage, setHead, startingPlaces, type FeedPlace } from './comments.lists';

export const COMMENT_MESSAGES = {
  required: MESSAGES.commentRequired,
  tooLong: MESSAGES.commentTooLong,
  asYourself: 'You can only comment as yourself.',
  ownPiece: 'You cannot comment on your own piece.',
  wrongOwner: 'This piece belongs to another member.',
  notASong: 'Only a comment on a song can have a time in the track.',
  pastTheEnd: 'The time must be within the song.',
  tooMany: 'You are commenting too fast. Please wait a minute.',
  noPiece: 'Content not found',
  noComment: 'Comment not found',
  sharedNotFound: 'The shared comment was not found on this piece.',
  notYours: "Only the comment's author, the piece's owner or an admin can remove it.",
  adminsOnly: 'Only admins can list every comment.',
  noMember: 'This member does not exist.',
  added: 'Success',
  removed: 'The comment is removed.',
} as const;

/** Comments and shares per member: a person writing, not a script. */
export const COMMENT_LIMIT = { max: 10, windowMs: 60_000 };
const MAX_PAGE = 50;
/** How far past removed comments one page of a piece's comments reads before it answers a shorter page. */
const MAX_READS_PER_PAGE = 5 * MAX_PAGE;

type CommentDto = Schemas['Comment'];
type Page = Schemas['CommentPage'];
type Piece = Pick<ContentDoc, '_id' | 'ownerId' | 'title' | 'type' | 'media' | 'setting' | 'takenDown' | 'commentsCount'>;
const PIECE_FIELDS = { ownerId: 1, title: 1, type: 1, media: 1, setting: 1, takenDown: 1, commentsCount: 1 } as const;
type Person = Pick<UserDoc, '_id' | 'username' | 'fullName' | 'firstName' | 'lastName' | 'image'>;
const PERSON_FIELDS = { username: 1, fullName: 1, firstName: 1, lastName: 1, image: 1 } as const;

/** A piece's comments, numbered from 1: `{contentId}-{n}`. */
const threads = numberedChains<Pick<CommentDoc, 'at'>>(CommentModel, { separator: '-', projection: { at: 1 } });

/** A piece's thread's kept head (comments.lists.ts), so that a process that never saw the thread finds its end at once. */
const threadHead = (contentId: string) => `thread:${contentId}`;

/** Forgets the comment threads this process knows, for tests that empty the collection under a running app. */
export const forgetCommentThreads = threads.forget;

const pageSize = (limit: number | undefined) => Math.min(Math.max(limit ?? 20, 1), MAX_PAGE);
const nameOf = (person: Person) => person.fullName || [person.firstName, person.lastName].filter(Boolean).join(' ') || person.username;

async function visiblePiece(contentId: string | Types.ObjectId, viewer: AuthContext | undefined): Promise<Piece> {
  const piece = Types.ObjectId.isValid(contentId) ? await contentReads.byId<Piece>(new Types.ObjectId(contentId), PIECE_FIELDS) : null;
  if (!piece || !(await canView(piece, viewer))) throw notFound(COMMENT_MESSAGES.noPiece);
  return piece;
}

/** The text as kept: plain, without the spaces around it, at most LIMITS.commentMaxChars characters. */
function checkedText(comment: string, required: boolean): string {
  const text = comment.trim();
  if (required && !text) throw badRequest(COMMENT_MESSAGES.required, [{ path: 'comment', message: COMMENT_MESSAGES.required }]);
  // Characters as people count them (an emoji is one), not UTF-16 units.
  if ([...text].length > LIMITS.commentMaxChars) throw badRequest(COMMENT_MESSAGES.tooLong, [{ path: 'comment', message: COMMENT_MESSAGES.tooLong }]);
  return text;
}

function checkedTime(piece: Piece, atSeconds: number | null | undefined): number | null {
  if (atSeconds === null || atSeconds === undefined) return null;
  const wrong = (message: string) => badRequest(message, [{ path: 'atSeconds', message }]);
  if (piece.type !== 'music') throw wrong(COMMENT_MESSAGES.notASong);
  if (piece.media.duration && atSeconds > piece.media.duration) throw wrong(COMMENT_MESSAGES.pastTheEnd);
  return Math.round(atSeconds * 10) / 10;
}

/** Builds what the lists show: each comment with its author, its piece and the comment it shares. */
async function toDtos(docs: CommentDoc[], knownPieces: Piece[] = []): Promise<CommentDto[]> {
  const sharedIds = [...new Set(docs.flatMap((doc) => (doc.sharedCommentId ? [doc.sharedCommentId] : [])))];
  const shared = new Map(
    (await Promise.all(sharedIds.map((id) => readById<CommentDoc>(CommentModel, id)))).flatMap((doc) =>
      doc && !doc.removedAt ? [[doc._id, doc] as const] : [],
    ),
  );
  const personIds = [...new Set([...docs, ...shared.values()].flatMap((doc) => [String(doc.commentorId), String(doc.ownerId)]))];
  const pieceIds = [...new Set(docs.map((doc) => String(doc.contentId)))].filter((id) => !knownPieces.some((piece) => String(piece._id) === id));
  // Each by `_id` (the read the embedded database serves from an index), the same member's read shared.
  const [people, pieces] = await Promise.all([
    Promise.all(personIds.map((id) => userReads.byIdShared<Person>(new Types.ObjectId(id), PERSON_FIELDS))),
    Promise.all(pieceIds.map((id) => contentReads.byIdShared<Piece>(new Types.ObjectId(id), PIECE_FIELDS))),
  ]);
  const personOf = new Map(people.flatMap((person) => (person ? [[String(person._id), person] as const] : [])));
  const pieceOf = new Map([...knownPieces, ...pieces.flatMap((piece) => (piece ? [piece] : []))].map((piece) => [String(piece._id), piece]));
  return docs.flatMap((doc) => {
    const author = personOf.get(String(doc.commentorId));
    const piece = pieceOf.get(String(doc.contentId));
    if (!author || !piece) return []; // an account or a piece removed since
    const quoted = doc.sharedCommentId ? shared.get(doc.sharedCommentId) : undefined;
    const quotedAuthor = quoted && personOf.get(String(quoted.commentorId));
    return [
      {
        id: doc._id,
        kind: doc.kind,
        contentId: String(doc.contentId),
        contentTitle: piece.title,
        ownerId: String(piece.ownerId),
        ownerUsername: personOf.get(String(piece.ownerId))?.username ?? '',
        commentorId: String(doc.commentorId),
        commentorName: nameOf(author),
        commentorUsername: author.username,
        commentorPhoto: author.image ?? null,
        description: doc.text,
        when: doc.at.toISOString(),
        atSeconds: doc.atSeconds,
        sharedComment:
          quoted && quotedAuthor
            ? { id: quoted._id, commentorName: nameOf(quotedAuthor), commentorUsername: quotedAuthor.username, description: quoted.text }
            : null,
      },
    ];
  });
}

/** Of `docs`, those on pieces the viewer may see, as the lists show them. */
async function shownTo(docs: CommentDoc[], viewer: AuthContext | undefined): Promise<CommentDto[]> {
  const pieces = await Promise.all(
    [...new Set(docs.map((doc) => String(doc.contentId)))].map((id) => contentReads.byIdShared<Piece>(new Types.ObjectId(id), PIECE_FIELDS)),
  );
  const seen = await Promise.all(pieces.map(async (piece) => (piece && (await canView(piece, viewer)) ? piece : null)));
  const visible = seen.flatMap((piece) => (piece ? [piece] : []));
  const shown = docs.filter((doc) => visible.some((piece) => piece._id.equals(doc.contentId)));
  return toDtos(shown, visible);
}

/** A page of every comment (read with a sort: admins only): only what the viewer may see. */
async function listPage(
  list: string,
  filter: Record<string, unknown>,
  viewer: AuthContext | undefined,
  cursor: string | undefined,
  limit: number | undefined,
): Promise<Page> {
  const size = pageSize(limit);
  const rows = await CommentModel.find(ours({ ...filter, removedAt: null, ...afterNewest(decodeNewestCursor(list, cursor)) }))
    .sort(NEWEST_FIRST)
    .limit(size + 1)
    .lean<CommentDoc[]>();
  const { items, nextCursor } = newestPage(list, rows, size);
  return { comments: await shownTo(items, viewer), nextCursor, total: null };
}

interface NewComment {
  comment: string;
  userId: string;
  ownerId: string;
  contentId: string;
  atSeconds?: number | null;
  sharedCommentId?: string | null;
}

async function write(caller: AuthContext, kind: CommentDoc['kind'], request: NewComment, now: Date) {
  if (request.userId !== caller.userId) throw new AppError(403, 'forbidden', COMMENT_MESSAGES.asYourself);
  const text = checkedText(request.comment, kind === 'comment');
  const piece = await visiblePiece(request.contentId, caller);
  if (String(piece.ownerId) !== request.ownerId) throw badRequest(COMMENT_MESSAGES.wrongOwner, [{ path: 'ownerId', message: COMMENT_MESSAGES.wrongOwner }]);
  if (kind === 'comment' && String(piece.ownerId) === caller.userId) throw new AppError(403, 'forbidden', COMMENT_MESSAGES.ownPiece);
  const atSeconds = kind === 'comment' ? checkedTime(piece, request.atSeconds) : null;
  const sharedCommentId = request.sharedCommentId ?? null;
  if (sharedCommentId) {
    const sharedDoc = sharedCommentId.startsWith(`${String(piece._id)}-`) ? await readById<CommentDoc>(CommentModel, sharedCommentId, { removedAt: 1 }) : null;
    if (!sharedDoc || sharedDoc.removedAt) throw notFound(COMMENT_MESSAGES.sharedNotFound);
  }
  await consumeLimit(`comment:${caller.userId}`, COMMENT_LIMIT, COMMENT_MESSAGES.tooMany, now);

  const mark = await markCommentAdd(piece._id, caller.userId, now);
  if ((await threads.end(String(piece._id), false)).n === 0) await chainEnd(threads, String(piece._id), threadHead(String(piece._id)));
  const { n, id, doc } = await threads.append(String(piece._id), () => ({
    kind,
    contentId: piece._id,
    ownerId: piece.ownerId,
    commentorId: new Types.ObjectId(caller.userId),
    text,
    atSeconds,
    sharedCommentId,
    at: now,
    removedAt: null,
  }));
  faultPoint(FAULT_POINTS.commentAfterNumber);
  await Promise.all([recordComment(piece._id, 1), listComment({ ...doc, _id: id }), setHead(threadHead(String(piece._id)), n)]);
  await commentChanges.clear(mark);
  clearPublicResponses();
  const [comment] = await toDtos([{ ...doc, _id: id }], [piece]);
  return { message: COMMENT_MESSAGES.added, comment: comment!, commentsCount: piece.commentsCount + 1 };
}

export const addComment = (caller: AuthContext, request: NewComment, now = new Date()) => write(caller, 'comment', request, now);

export const addShare = (caller: AuthContext, request: NewComment, now = new Date()) => write(caller, 'share', request, now);

/** Removes a comment for its author, the piece's owner or an admin; it stays as a tombstone in the thread. */
export async function removeComment(caller: AuthContext, commentId: string, now = new Date()) {
  const doc = await readById<CommentDoc>(CommentModel, commentId);
  if (!doc || doc.removedAt) throw notFound(COMMENT_MESSAGES.noComment);
  const piece = await contentReads.byId<Piece>(doc.contentId, PIECE_FIELDS);
  const mayRemove = isOwnerOrAdmin(caller, doc.commentorId) || isOwnerOrAdmin(caller, piece?.ownerId ?? doc.ownerId);
  if (!mayRemove) throw new AppError(403, 'forbidden', COMMENT_MESSAGES.notYours);
  if (!(await tombstone(doc, new Types.ObjectId(caller.userId), now))) throw notFound(COMMENT_MESSAGES.noComment);
  clearPublicResponses();
  return { message: COMMENT_MESSAGES.removed, commentsCount: Math.max(0, (piece?.commentsCount ?? 1) - 1) };
}

/**
 * Empties a comment's text and marks it removed, leaving it in its thread; the piece's count goes down once.
 * Answers false when it was removed before (by this call's twin or earlier).
 */
export async function tombstone(doc: Pick<CommentDoc, '_id' | 'contentId'>, by: Types.ObjectId, now: Date): Promise<boolean> {
  // Marked first; of two removals at once, the one that loses the claim leaves the shared mark to the winner.
  const mark = await markCommentRemoval(doc.contentId, doc._id, now);
  try {
    // The removal is claimed by its insert: of two at once, anywhere, one takes the count down.
    await insertWhole(CommentRemovalModel, { _id: doc._id, by, at: now });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return false;
  }
  faultPoint(FAULT_POINTS.commentAfterRemovalClaim);
  await emptyRemoved(doc._id, now);
  // A removed piece has no count to take down: the update finds nothing.
  await recordComment(doc.contentId, -1);
  await commentChanges.clear(mark);
  return true;
}

/** Empties a removed comment's text (its removal claimed at `at`); the same on a second call. */
export async function emptyRemoved(commentId: string, at: Date): Promise<void> {
  await CommentModel.updateOne({ _id: commentId }, { $set: { text: '', removedAt: at } });
}

/**
 * Counts a piece's comments that are not removed, reading its thread by `_id` from the first to the last, and sets
 * the piece's kept count to it: for a change that a crash left half-made (its count moved or not, which a move by
 * one cannot tell), so its cost is the thread's length, once per crash.
 */
export async function recountPieceComments(contentId: Types.ObjectId): Promise<number> {
  const end = await chainEnd(threads, String(contentId), threadHead(String(contentId)));
  let live = 0;
  for (let from = 1; from <= end; from += 100) {
    const numbers = Array.from({ length: Math.min(100, end - from + 1) }, (_, i) => from + i);
    const docs = await Promise.all(
      numbers.map((n) => readById<Pick<CommentDoc, 'removedAt'>>(CommentModel, threads.idOf(String(contentId), n), { removedAt: 1 })),
    );
    live += docs.filter((doc) => doc && !doc.removedAt).length;
  }
  await setPieceTotals([{ contentId, totals: { commentsCount: live } }]);
  return live;
}

/**
 * The comments of a piece's thread written at or after `since`, newest first: read from the thread's end down, so
 * what is read is the thread's comments since then, not its history.
 */
export async function threadCommentsSince(contentId: Types.ObjectId, since: Date): Promise<CommentDoc[]> {
  const found: CommentDoc[] = [];
  for (let n = await chainEnd(threads, String(contentId), threadHead(String(contentId))); n >= 1; n -= 1) {
    const doc = await readById<CommentDoc>(CommentModel, threads.idOf(String(contentId), n));
    if (!doc || doc.at < since) break;
    found.push(doc);
  }
  return found;
}

/** What a page of a piece's comments starts below: the number in its cursor, or past the thread's end. */
const acceptNumber = (contentId: string) => (n: unknown, id: unknown) =>
  Number.isSafeInteger(n) && (n as number) >= 1 && id === contentId ? (n as number) : null;

/** The name the cursors of a piece's comments are bound to. */
export const commentsOfPieceList = (contentId: string) => `comments-of-piece:${contentId}`;

/** A page of a piece's comments and shares, the newest first: reads by `_id`, as cheap deep as at the top. */
export async function commentsOfPiece(contentId: string, viewer: AuthContext | undefined, cursor?: string, limit?: number): Promise<Page> {
  const piece = await visiblePiece(contentId, viewer);
  const id = String(piece._id);
  const size = pageSize(limit);
  const list = commentsOfPieceList(id);
  const below = cursor ? decodePageCursor(list, cursor, acceptNumber(id))! : (await chainEnd(threads, id, threadHead(id))) + 1;
  const found: CommentDoc[] = [];
  let next = below - 1;
  while (next >= 1 && found.length < size && below - next <= MAX_READS_PER_PAGE) {
    const numbers = Array.from({ length: Math.min(size - found.length, next) }, (_, i) => next - i);
    const docs = await Promise.all(numbers.map((n) => readById<CommentDoc>(CommentModel, threads.idOf(id, n))));
    found.push(...docs.flatMap((doc) => (doc && !doc.removedAt ? [doc] : [])));
    next -= numbers.length;
  }
  return { comments: await toDtos(found, [piece]), nextCursor: next >= 1 ? encodePageCursor(list, next + 1, id) : null, total: piece.commentsCount };
}

/** A member's comments and shares on the pieces the viewer may see, the newest first (their list, by key). */
export async function commentsOfMember(userId: string, viewer: AuthContext | undefined, cursor?: string, limit?: number): Promise<Page> {
  if (!(await userReads.byId(new Types.ObjectId(userId), { _id: 1 }))) throw notFound(COMMENT_MESSAGES.noMember);
  const list = `comments-of-member:${userId}`;
  const page = await memberCommentsPage(userId, decodePageCursor(list, cursor, acceptNumber(userId)), pageSize(limit));
  return { comments: await shownTo(page.docs, viewer), nextCursor: page.below ? encodePageCursor(list, page.below, userId) : null, total: null };
}

/**
 * The cursor's places: the followings list's copy the artists' names refer to, then each artist's name (their follow's
 * place in the caller's followings list, follows' latestFollowed) and the number of their list to go on below, in
 * base 36: `{copy}|{name}.{below},...` (a name in a copy is negative).
 */
const encodePlaces = (copy: number, places: FeedPlace[]) =>
  `${copy.toString(36)}|${places.map((place) => `${place.event.toString(36)}.${place.below.toString(36)}`).join(',')}`;

function decodePlaces(key: unknown, id: unknown): { copy: number; places: { event: number; below: number }[] } | null {
  if (typeof key !== 'string' || id !== 'feed') return null;
  const [copyPart, list] = key.split('|');
  const copy = parseInt(copyPart ?? '', 36);
  const places = (list ?? '').split(',').map((pair) => pair.split('.').map((part) => parseInt(part, 36)));
  const valid =
    Number.isSafeInteger(copy) &&
    copy >= 0 &&
    places.length <= FEED_ARTISTS &&
    places.every(([event, below, ...rest]) => !rest.length && Number.isSafeInteger(event) && event !== 0 && Number.isSafeInteger(below) && below! >= 1);
  return valid ? { copy, places: places.map(([event, below]) => ({ event: event!, below: below! })) } : null;
}

/** The longest cursor the contract allows. */
const MAX_CURSOR = 200;

/**
 * Comments and shares on the pieces of the artists the caller follows, the newest first: the lists of the
 * FEED_ARTISTS artists they followed last, merged (comments.lists.ts). The cursor holds each artist's place, so a
 * later page reads the same artists (less any the caller unfollowed since).
 */
export async function commentFeed(caller: AuthContext, cursor?: string, limit?: number): Promise<Page> {
  const list = `comment-feed:${caller.userId}`;
  const saved = decodePageCursor(list, cursor, decodePlaces);
  let places: FeedPlace[];
  let copy: number;
  if (saved) {
    copy = saved.copy;
    const followed = await stillFollowed(
      caller.userId,
      saved.places.map((place) => place.event),
      copy,
    );
    places = followed.map(({ memberId, event }) => ({ artistId: memberId, event, below: saved.places.find((place) => place.event === event)!.below }));
  } else {
    const latest = await latestFollowed(caller.userId, FEED_ARTISTS);
    copy = latest.copy;
    places = await startingPlaces(latest.followed.map(({ memberId, event }) => ({ artistId: memberId, event, below: 0 })));
  }
  const page = await feedPage(places, pageSize(limit));
  // The places of the artists followed longest ago go first should the cursor not fit (only with lists of millions).
  let left = page.places;
  let nextCursor = left.length ? encodePageCursor(list, encodePlaces(copy, left), 'feed') : null;
  while (nextCursor && nextCursor.length > MAX_CURSOR) {
    left = left.slice(0, -1);
    nextCursor = left.length ? encodePageCursor(list, encodePlaces(copy, left), 'feed') : null;
  }
  return { comments: await shownTo(page.docs, caller), nextCursor, total: null };
}

/** Every comment and share, the newest first, for admins. */
export async function allComments(caller: AuthContext, cursor?: string, limit?: number): Promise<Page> {
  requireAdmin(caller, COMMENT_MESSAGES.adminsOnly);
  return listPage('all-comments', {}, caller, cursor, limit);
}

/** Every piece's comments count, counted from the comments (the rankings job repairs the kept counts from them). */
export async function commentTotals(): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const { contentId } of await CommentModel.find({ removedAt: null }, { contentId: 1 }).lean<Pick<CommentDoc, 'contentId'>[]>()) {
    totals.set(String(contentId), (totals.get(String(contentId)) ?? 0) + 1);
  }
  return totals;
}
