/**
 * A member's comments and the comment feed, read by key: two numbered chains of entries per member
 * (comments.model.ts), `by:{userId}` (what they wrote) and `on:{ownerId}` (what was written on their pieces), each
 * entry appended when its comment is written. A removed comment stays a tombstone, which the readers skip; so a page
 * reads at most MAX_ENTRIES_PER_PAGE entries, and past a long run of removed comments answers a shorter page with a
 * cursor to go on from.
 *
 * The feed (comments on the pieces of the artists a member follows) is not fanned out to each follower, which would
 * cost an artist with 100,000 followers 100,000 writes per comment: it merges the `on` lists of the FEED_ARTISTS
 * artists the member followed last, newest first, each read from where the previous page stopped (the cursor holds
 * each artist's place).
 */
import type { Types } from 'mongoose';
import { numberedChains } from '../../lib/numbered-chain';
import { keepHint, readById } from '../../lib/query';
import {
  CommentListEntryModel,
  CommentListHeadModel,
  CommentModel,
  type CommentDoc,
  type CommentListEntryDoc,
  type CommentListHeadDoc,
} from './comments.model';

/** Entries one page reads at most, however many of their comments were removed. */
export const MAX_ENTRIES_PER_PAGE = 250;
/** The artists whose comments one feed reads: those the member followed last. */
export const FEED_ARTISTS = 10;

const lists = numberedChains<Pick<CommentListEntryDoc, 'at'>>(CommentListEntryModel, { separator: '#', projection: { at: 1 } });

/** Forgets the list ends this process knows, for tests that empty the collections under a running app. */
export const forgetCommentLists = lists.forget;

export const byList = (userId: string) => `by:${String(userId)}`;
export const onList = (ownerId: string) => `on:${String(ownerId)}`;
export const entryId = (chain: string, n: number) => lists.idOf(chain, n);

/** What `chainEnd` needs of a set of numbered chains (lib/numbered-chain.ts). */
interface Ends {
  end(chain: string, exact: boolean, from?: { n: number; doc: null }): Promise<{ n: number }>;
}

/**
 * The last number of a chain: from what this process knows, else from its kept head (`headId` in
 * `comment_list_heads`), then forward; so a process that never saw a long chain finds its end in a read or two.
 */
export async function chainEnd(chains: Ends, chain: string, headId = chain): Promise<number> {
  if ((await chains.end(chain, false)).n > 0) return (await chains.end(chain, true)).n;
  const head = await readById<CommentListHeadDoc>(CommentListHeadModel, headId, { n: 1 });
  return (await chains.end(chain, true, head && head.n > 0 ? { n: head.n, doc: null } : undefined)).n;
}

/** Sets a chain's kept head after an append (best-effort: a late write may leave it a few behind, never ahead). */
export const setHead = async (headId: string, n: number) => keepHint(CommentListHeadModel, headId, { n });

/** The last number of one of a member's lists. */
export const listEnd = (chain: string) => chainEnd(lists, chain);

async function appendEntry(chain: string, entry: Omit<CommentListEntryDoc, '_id'>): Promise<void> {
  if ((await lists.end(chain, false)).n === 0) await listEnd(chain);
  const { n } = await lists.append(chain, () => entry);
  await setHead(chain, n);
}

/**
 * Whether a member's list names the comment among its entries dated `since` or later: read from the list's end down,
 * so what is read is the list's entries since then.
 */
export async function listNamesSince(chain: string, commentId: string, since: Date): Promise<boolean> {
  for (let n = await listEnd(chain); n >= 1; n -= 1) {
    const entry = await readById<CommentListEntryDoc>(CommentListEntryModel, entryId(chain, n), { commentId: 1, at: 1 });
    if (!entry || entry.at < since) return false;
    if (entry.commentId === commentId) return true;
  }
  return false;
}

/** Puts a new comment in its author's list and in its piece owner's (or, for the rebuild, in one of them). */
export async function listComment(comment: Pick<CommentDoc, '_id' | 'commentorId' | 'ownerId' | 'at'>, only?: 'by' | 'on'): Promise<void> {
  const entry = { commentId: comment._id, at: comment.at };
  const chains = [...(only !== 'on' ? [byList(String(comment.commentorId))] : []), ...(only !== 'by' ? [onList(String(comment.ownerId))] : [])];
  await Promise.all(chains.map((chain) => appendEntry(chain, entry)));
}

/** Entries `below - 1` down to `below - count` of a list, each with its comment when that is not removed. */
async function readDown(chain: string, below: number, count: number): Promise<{ n: number; doc: CommentDoc | null }[]> {
  const numbers = Array.from({ length: Math.min(count, below - 1) }, (_, i) => below - 1 - i);
  const entries = await Promise.all(numbers.map((n) => readById<CommentListEntryDoc>(CommentListEntryModel, entryId(chain, n), { commentId: 1 })));
  const docs = await Promise.all(entries.map(async (entry) => (entry ? await readById<CommentDoc>(CommentModel, entry.commentId) : null)));
  return numbers.map((n, i) => {
    const doc = docs[i];
    return { n, doc: doc && !doc.removedAt ? doc : null };
  });
}

/**
 * One page of a member's comments, the newest first: the comments not removed, and the number to go on below (null
 * at the list's start). `below` is where the previous page stopped (none: the list's end).
 */
export async function memberCommentsPage(userId: string, below: number | null, size: number): Promise<{ docs: CommentDoc[]; below: number | null }> {
  const chain = byList(userId);
  const start = below ?? (await listEnd(chain)) + 1;
  const docs: CommentDoc[] = [];
  let next = start; // numbers below this are still to read
  while (next > 1 && docs.length < size && start - next < MAX_ENTRIES_PER_PAGE) {
    const read = await readDown(chain, next, Math.min(size - docs.length, MAX_ENTRIES_PER_PAGE - (start - next)));
    for (const { n, doc } of read) {
      next = n;
      if (doc) docs.push(doc);
    }
  }
  return { docs, below: next > 1 ? next : null };
}

/** An artist's place in a feed: the follow that put them in it, and the number of their list to go on below. */
export interface FeedPlace {
  artistId: Types.ObjectId;
  /** The follow's name in the member's followings list (follows' latestFollowed): what the cursor names the artist by. */
  event: number;
  below: number;
}

const newerFirst = (a: CommentDoc, b: CommentDoc) => b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : -1);

/** A feed's places, each artist's list's end when the feed starts (`below` 0). */
export async function startingPlaces(places: FeedPlace[]): Promise<FeedPlace[]> {
  return Promise.all(places.map(async (place) => ({ ...place, below: (await listEnd(onList(String(place.artistId)))) + 1 })));
}

/**
 * One page of the feed: the artists' lists merged newest first from their places, and the places after it (an
 * artist whose list is read to its start is left out). A page reads at most MAX_ENTRIES_PER_PAGE entries in all.
 */
export async function feedPage(places: FeedPlace[], size: number): Promise<{ docs: CommentDoc[]; places: FeedPlace[] }> {
  const buffers: { n: number; doc: CommentDoc }[][] = places.map(() => []);
  const readTo = places.map((place) => place.below);
  const docs: CommentDoc[] = [];
  let reads = 0;
  while (docs.length < size) {
    // A comment is taken only when every artist with more to read has their next one at hand, so none is passed over.
    const empty = places.flatMap((_, i) => (!buffers[i]!.length && readTo[i]! > 1 ? [i] : []));
    if (empty.length) {
      if (reads >= MAX_ENTRIES_PER_PAGE) break;
      const window = Math.max(2, Math.ceil((size - docs.length) / empty.length));
      await Promise.all(
        empty.map(async (i) => {
          const read = await readDown(onList(String(places[i]!.artistId)), readTo[i]!, Math.min(window, Math.max(1, MAX_ENTRIES_PER_PAGE - reads)));
          reads += read.length;
          readTo[i] = readTo[i]! - read.length;
          buffers[i]!.push(...read.flatMap(({ n, doc }) => (doc ? [{ n, doc }] : [])));
        }),
      );
      continue;
    }
    let newest = -1;
    buffers.forEach((buffer, i) => {
      if (buffer.length && (newest < 0 || newerFirst(buffer[0]!.doc, buffers[newest]![0]!.doc) < 0)) newest = i;
    });
    if (newest < 0) break; // every list read to its start
    docs.push(buffers[newest]!.shift()!.doc);
  }
  // Each artist goes on from their first comment not taken (or, with none at hand, from where the reading stopped).
  const after = places.map((place, i) => ({ ...place, below: buffers[i]!.length ? buffers[i]![0]!.n + 1 : readTo[i]! }));
  return { docs, places: after.filter((place) => place.below > 1) };
}
