/**
 * Discovery reads: the ranked feeds, search, artists, profiles, the detail of a piece. Every list is a
 * keyset read (feeds.cursor.ts) with a hard page cap; only listed (public, not hidden) pieces appear in
 * public lists, and a member's own list shows them their private pieces too.
 */
import { Types } from 'mongoose';
import { AppError, notFound } from '../../lib/errors';
import type { Schemas } from '../../lib/openapi-types';
import { ours } from '../../lib/query';
import type { AuthContext } from '../../lib/auth-context';
import { isSelfOrAdmin, requireSelfOrAdmin } from '../../lib/permissions';
import { isFollower } from '../follows';
import {
  canView,
  type ContentDoc,
  type ContentsService,
  contentReads,
  listedPiecesMatching,
  ownerChainDown,
  ownerChainEnd,
  pieceAtLink,
  pieceByFormerLink,
  supportedPiecesDown,
  supportedPiecesEnd,
} from '../contents';
import { hasKnacked, knackStatusOf } from '../ledger';
import { tagsService, type TagType } from '../tags';
import { newestMembersMatching, resolveUsername, toPublicUserDto, type UserDoc, userReads } from '../users';
import { publicPages } from '../../lib/public-pages';
import { after, decodeCursor, encodeCursor, pageOf, sortOf } from './feeds.cursor';
import {
  artistSpec,
  changesReader,
  pieceSpec,
  keptListsBuilt,
  mergedRankedPage,
  ownerPieceSpec,
  rankedPage,
  top50Of,
  type ArtistOrder,
  type RankedSpec,
} from './feeds.lists';
import { RANKINGS, type FeedKind } from './feeds.kinds';
import { byKeyThenId, meetsCondition, rowsAfter } from './feeds.search';

export const MAX_PAGE = 50;
export const TOP_50 = 50;
/** At most this many entries of a member's list are read for one page (pieces hidden from the viewer are skipped). */
const MAX_SCANNED = 200;
const NO_MEMBER = 'This member does not exist.';

export interface FeedFilter {
  kind: FeedKind;
  /** A main tag label (Music, Art, Photos). */
  tag?: string;
  /** Sub-tag labels (any of them). */
  subTags?: string[];
  ownerId?: string;
  /** Title words, matched at word starts. */
  q?: string;
  cursor?: string;
  limit?: number;
}

type ContentPage = Schemas['ContentPage'];
type UserCard = Schemas['UserCard'];

export const toUserCard = (user: UserDoc): UserCard => ({
  user: toPublicUserDto(user),
  contentsCount: user.contentsCount,
  followersCount: user.followersCount,
  followingsCount: user.followingsCount,
});

/**
 * The name a feed's cursors are bound to: its kind and its filters as they were resolved (`tag=music` and
 * `tag=Music` are one list). The page size is not part of it: a client may change it between pages.
 */
export const feedListOf = (feed: { kind: FeedKind; type?: TagType; subTags?: string[]; ownerId?: string; q?: string }) =>
  `feed:${JSON.stringify([feed.kind, feed.type ?? null, feed.subTags ?? null, feed.ownerId ?? null, feed.q?.trim().toLowerCase() ?? null])}`;

const pageSize = (limit: number | undefined) => Math.min(Math.max(limit ?? 20, 1), MAX_PAGE);

/**
 * Canonical labels of a main tag and sub-tags given in any case; 404 for a label that is no tag. `none` when no piece
 * can match: every sub-tag asked is under another main tag than the one asked.
 */
async function resolveTags(tag: string | undefined, subTags: string[] | undefined): Promise<{ type?: TagType; subTags?: string[]; none?: boolean }> {
  if (!tag && !subTags?.length) return {};
  const tags = await tagsService.listTags();
  const byLabel = new Map(tags.map((t) => [t.labelLower, t]));
  const find = (label: string) => {
    const found = byLabel.get(label.trim().toLowerCase());
    if (!found) throw notFound(`There is no tag named ${label.trim()}.`);
    return found;
  };
  const main = tag ? find(tag) : undefined;
  if (main?.parentTag) return { subTags: [main.label] }; // a sub-tag given as `tag`
  const subs = subTags?.map(find);
  const none = Boolean(main && subs?.length && subs.every((sub) => sub.type !== main.type));
  return { type: main?.type, subTags: subs?.map((sub) => sub.label), none };
}

/** The member a username names: its holder, or the member who gave it up (old links keep working). */
async function findUser(username: string): Promise<UserDoc> {
  const user = await resolveUsername(username);
  if (!user) throw notFound(NO_MEMBER);
  return user;
}

/**
 * The piece of a share link `/{username}-{slug}`: the username's member (a former name leads to the member as they
 * are now), then their piece by the slug, each read by key; else a link from before the piece was sold to another
 * member leads to it under its new owner.
 */
async function pieceByLink(username: string, slug: string): Promise<ContentDoc | null> {
  return (await pieceAtLink(username, slug)) ?? pieceByFormerLink(username.toLowerCase(), slug);
}

export function createFeedsService(contents: ContentsService) {
  /**
   * A page of pieces of the list `list` as `reader` sees them (null: a page shared by everyone, where hidden counts
   * stay hidden). `list` names the list with what decides what it holds and its order: its cursors page only it.
   */
  async function contentPage(
    list: string,
    filter: Record<string, unknown>,
    key: string | null,
    cursor: string | undefined,
    limit: number | undefined,
    reader: AuthContext | null | undefined,
  ): Promise<ContentPage> {
    const size = pageSize(limit);
    const position = decodeCursor(list, cursor);
    const conditions = [filter, after(key, position)].filter((c) => Object.keys(c).length);
    const rows = await contentReads.many(ours(conditions.length > 1 ? { $and: conditions } : (conditions[0] ?? {})), { sort: sortOf(key), limit: size + 1 });
    const { items, nextCursor } = pageOf(list, rows, size, (row) => (key ? (row[key as keyof ContentDoc] as number) : null));
    return { contents: await Promise.all(items.map((item) => contents.dto(item, reader))), nextCursor };
  }

  /**
   * One page of a numbered chain of pieces (newest last), read from its end down by number: each entry's piece read by
   * `_id` and kept when `keeps` says it still belongs (a piece is shown once). At most MAX_SCANNED entries are read
   * for a page, which may then hold fewer pieces than asked, with a cursor to read on from.
   */
  async function chainPage(
    list: string,
    cursor: string | undefined,
    size: number,
    anchor: Types.ObjectId | string,
    chain: {
      end: () => Promise<number>;
      down: (from: number, count: number) => Promise<{ n: number; entry: { contentId: Types.ObjectId } }[]>;
      keeps: (doc: ContentDoc) => boolean;
    },
  ): Promise<{ pieces: ContentDoc[]; nextCursor: string | null }> {
    const position = decodeCursor(list, cursor);
    let from = position ? (position.key ?? 0) - 1 : await chain.end();
    const found: { doc: ContentDoc; n: number }[] = [];
    const seen = new Set<string>();
    let scanned = 0;
    while (found.length <= size && from >= 1 && scanned < MAX_SCANNED) {
      const rows = await chain.down(from, Math.min(size + 1 - found.length, MAX_SCANNED - scanned));
      const count = Math.min(size + 1 - found.length, MAX_SCANNED - scanned, from);
      scanned += count;
      from -= count;
      const docs = await Promise.all(rows.map((row) => contentReads.byId<ContentDoc>(row.entry.contentId)));
      rows.forEach((row, i) => {
        const doc = docs[i];
        if (!doc || !chain.keeps(doc) || seen.has(String(doc._id))) return;
        seen.add(String(doc._id));
        found.push({ doc, n: row.n });
      });
    }
    const page = found.slice(0, size);
    const last = page[page.length - 1];
    const more = found.length > size || (from >= 1 && scanned >= MAX_SCANNED);
    const lastN = last?.n ?? from + 1;
    const nextCursor = more && lastN > 1 ? encodeCursor(list, { key: lastN, id: last?.doc._id ?? new Types.ObjectId(String(anchor)) }) : null;
    return { pieces: page.map(({ doc }) => doc), nextCursor };
  }

  /**
   * A page of the list `list` taken from pieces already read (a search's, bounded by its index): the same order and
   * cursors as contentPage, for the public (hidden counts stay hidden).
   */
  async function candidatePage(list: string, pieces: ContentDoc[], key: string | null, cursor: string | undefined, limit: number | undefined) {
    const size = pageSize(limit);
    const rows = rowsAfter(pieces, key, decodeCursor(list, cursor), size + 1);
    const { items, nextCursor } = pageOf(list, rows, size, (row) => (key ? (row[key as keyof ContentDoc] as number) : null));
    return { contents: await Promise.all(items.map((item) => contents.dto(item, null))), nextCursor };
  }

  /** Artists (members with at least one public piece) by newest, fans or trend: their ranked list, paged by key. */
  async function artistPage(order: ArtistOrder, cursor: string | undefined, limit: number | undefined) {
    const { items, nextCursor } = await rankedPage(artistSpec(order, `artists:${order}`, changesReader()), cursor, pageSize(limit));
    return { users: items.map(toUserCard), nextCursor };
  }

  return {
    /** A public feed: the same for every visitor, so served from the short cache (counts hidden from anyone are hidden here). */
    feed(query: FeedFilter): Promise<ContentPage> {
      return publicPages.get(`feed:${JSON.stringify(query)}`, async () => {
        const { key, where } = RANKINGS[query.kind];
        const { type, subTags, none } = await resolveTags(query.tag, query.subTags);
        const list = feedListOf({ kind: query.kind, type, subTags, ownerId: query.ownerId, q: query.q });
        if (none) {
          decodeCursor(list, query.cursor); // a cursor of another list is refused as on any list
          return { contents: [], nextCursor: null };
        }
        if (query.q) {
          // A search reads its candidates through the title index (bounded) and applies the feed's filters to them.
          const { pieces } = await listedPiecesMatching(query.q);
          const chosen = pieces.filter(
            (piece) =>
              meetsCondition(piece, where) &&
              (!type || piece.type === type) &&
              (!subTags || subTags.includes(piece.subTag)) &&
              (!query.ownerId || String(piece.ownerId) === query.ownerId),
          );
          return candidatePage(list, chosen, key, query.cursor, query.limit);
        }
        const filter = {
          listed: true,
          ...where,
          ...(type ? { type } : {}),
          ...(subTags ? { subTag: subTags.length === 1 ? subTags[0] : { $in: subTags } } : {}),
          ...(query.ownerId ? { ownerId: new Types.ObjectId(query.ownerId) } : {}),
        };
        const subTag = subTags?.length === 1 ? subTags[0] : undefined;
        const built = subTag !== undefined || query.ownerId ? await keptListsBuilt() : { subTags: true, owners: true };
        const specOf = (sub: string | undefined) =>
          query.ownerId
            ? built.owners && ownerPieceSpec(query.kind, query.ownerId, { type, subTag: sub }, list, changesReader())
            : (!sub || built.subTags) && pieceSpec(query.kind, type, list, changesReader(), sub);
        const page = async ({ items, nextCursor }: { items: ContentDoc[]; nextCursor: string | null }) => ({
          contents: await Promise.all(items.map((item) => contents.dto(item, null))),
          nextCursor,
        });
        if (!subTags || subTag !== undefined) {
          // A ranking over all pieces, one main tag or one sub-tag, or one artist's pieces (of a main tag or a
          // sub-tag too when asked): its ranked list, paged by key.
          const spec = specOf(subTag);
          if (spec) return page(await rankedPage(spec, query.cursor, pageSize(query.limit)));
        } else {
          // Several sub-tags at once (an integrator's call): their ranked lists, merged by key.
          const specs = [...new Set(subTags)].map(specOf);
          if (specs.every(Boolean)) return page(await mergedRankedPage(specs as RankedSpec<ContentDoc>[], list, query.cursor, pageSize(query.limit)));
        }
        // Lists not built yet by this release: a sorted read of the pieces that match.
        return contentPage(list, filter, key, query.cursor, query.limit, null);
      });
    },

    /**
     * A member's pieces, newest first: public ones for everyone, those shown to followers too for a follower, all of
     * them for the member and admins.
     */
    async byUsername(username: string, viewer: AuthContext | undefined, type: TagType | undefined, cursor?: string, limit?: number): Promise<ContentPage> {
      const owner = await findUser(username);
      const ownerId = String(owner._id);
      const all = isSelfOrAdmin(viewer, ownerId);
      const follower = !all && viewer ? await isFollower(viewer.userId, ownerId) : false;
      const shown = (piece: ContentDoc) => all || piece.listed || (follower && Boolean(piece.setting?.followers) && !piece.takenDown);
      const list = `by-owner:${ownerId}:${type ?? 'all'}`;
      const size = pageSize(limit);
      // The member's list of their pieces (of the type asked), newest last: shown if still theirs and this viewer may see it.
      const page = await chainPage(list, cursor, size, owner._id, {
        end: () => ownerChainEnd(owner._id, type),
        down: (from, count) => ownerChainDown(owner._id, type, from, count),
        keeps: (doc) => String(doc.ownerId) === ownerId && (!type || doc.type === type) && shown(doc),
      });
      return { contents: await Promise.all(page.pieces.map((doc) => contents.dto(doc, viewer))), nextCursor: page.nextCursor };
    },

    /** The pieces of others the member paid the listing fee for (their collection): for the member and admins only. */
    async supported(userId: string, viewer: AuthContext, cursor?: string, limit?: number): Promise<ContentPage> {
      requireSelfOrAdmin(viewer, userId, NO_MEMBER);
      // Their chain of paid pieces (contents' supported_pieces), newest last: shown while they are still its payer, it is
      // another member's and listed.
      const page = await chainPage(`supported:${userId}`, cursor, pageSize(limit), userId, {
        end: () => supportedPiecesEnd(userId),
        down: (from, count) => supportedPiecesDown(userId, from, count),
        keeps: (doc) => String(doc.payerId) === userId && String(doc.ownerId) !== userId && doc.listed,
      });
      return { contents: await Promise.all(page.pieces.map((doc) => contents.dto(doc, viewer))), nextCursor: page.nextCursor };
    },

    async top50(username: string, viewer: AuthContext | undefined): Promise<Schemas['Top50Response']> {
      const artist = await findUser(username);
      // The artist's own songs, and the songs others entered in their chart (a visitor's once registered: until
      // then it is not listed), from the chart's ranked list.
      const rows = await top50Of(artist._id);
      return { artist: toUserCard(artist), contents: await Promise.all(rows.map((row) => contents.dto(row, viewer))) };
    },

    /**
     * At most `limit` titles whose words start with the query's words, the most reacted first (of the candidates the
     * title index holds: all the matches unless every word of the query is in very many titles).
     */
    suggestions(q: string, limit: number): Promise<Schemas['TitleSuggestionsResponse']> {
      return publicPages.get(`titles:${limit}:${q.toLowerCase()}`, async () => {
        const { pieces } = await listedPiecesMatching(q);
        const rows = pieces.sort(byKeyThenId('reactedCount')).slice(0, limit);
        const dtos = await Promise.all(rows.map((row) => contents.dto(row, null)));
        return {
          titles: dtos.map((c) => ({
            id: c.id,
            title: c.title,
            ownerUsername: c.ownerUsername,
            ownerName: c.ownerName,
            type: c.type,
            knackPrice: c.knackRate,
            link: c.link,
            thumbPath: c.thumbPath,
          })),
        };
      });
    },

    /** Artists whose names have words starting with the query's words, newest first, read through the name index. */
    async searchOwners(q: string, cursor?: string, limit?: number) {
      const list = `owners:${q.trim().toLowerCase()}`;
      const size = pageSize(limit);
      const position = decodeCursor(list, cursor);
      const rows = await newestMembersMatching(q, {
        before: position ? String(position.id) : undefined,
        count: size + 1,
        accept: (member) => member.contentsCount > 0,
      });
      const { items, nextCursor } = pageOf(list, rows, size, () => null);
      return { users: items.map(toUserCard), nextCursor };
    },

    artists: (cursor?: string, limit?: number) => artistPage('newest', cursor, limit),
    artistsByFans: (cursor?: string, limit?: number) => artistPage('by-fans', cursor, limit),
    trendingArtists: (cursor?: string, limit?: number) => artistPage('trending', cursor, limit),

    async profile(username: string): Promise<UserCard> {
      return toUserCard(await findUser(username));
    },

    /**
     * The detail modal's data. `forUser` must be the caller (or `guest`). The comments themselves come with the
     * comments calls; the count is the piece's kept one.
     */
    async detail(contentId: string, forUser: string, viewer: AuthContext | undefined): Promise<Schemas['ContentDetailResponse']> {
      if (forUser !== 'guest') {
        if (!viewer) throw new AppError(401, 'unauthorized', 'Please log in.');
        if (viewer.userId !== forUser) throw new AppError(403, 'forbidden', "You can't see another member's view of a piece.");
      }
      const content = await contents.getVisible(contentId, viewer);
      const owner = await userReads.byId<UserDoc>(content.ownerId);
      if (!owner) throw notFound('Content not found');
      const reacted = viewer ? await hasKnacked(content._id, viewer.userId) : false;
      const knackStatus = knackStatusOf(content, viewer?.userId, reacted);
      return { content: await contents.dto(content, viewer), owner: toPublicUserDto(owner), commentsCount: content.commentsCount, knackStatus };
    },

    /**
     * The piece a share link names; a link with the owner's former username finds it under their name now, and a link
     * from before a sale finds it under its new owner (its `link` is the one to show).
     */
    async byLink(username: string, slug: string, viewer: AuthContext | undefined): Promise<Schemas['Content']> {
      const content = await pieceByLink(username, slug);
      if (!content || !(await canView(content, viewer))) throw notFound('Content not found');
      return contents.dto(content, viewer);
    },
  };
}

export type FeedsService = ReturnType<typeof createFeedsService>;
