/**
 * What the scale benchmark's calls are about (scripts/bench-scale.calls.ts `Fixture`), picked from the database by the
 * same rules at any size, so the demo and the large data set are measured about the same kind of member and piece.
 * tests/api/bounded-reads.test.ts picks the same on the demo.
 */
import { ours } from '../server/lib/query';
import { ContentModel } from '../server/modules/contents';
import { chainLength, LedgerEntryModel, userAccount } from '../server/modules/ledger';
import { TagModel } from '../server/modules/tags';
import { UserModel } from '../server/modules/users';
import type { Fixture } from './bench-scale.calls';

/** The member is one of at most this many who follow a few and have at most this many followers themselves. */
const CANDIDATES = 1_000;
const FEW_FOLLOWERS = 3;
/**
 * How many items the member's history holds: fewer than the page the calls ask for (`limit=20`), and a number that
 * many members have at any size (the members' histories are drawn alike at every scale), so both pages hold as many.
 */
const HISTORY_ITEMS = 12;
/**
 * How many members the member follows, and how many comments the piece has: each fewer than the page the calls ask
 * for (`limit=20`) and about the average at any size (five follows a member, two to twenty comments a commented piece),
 * so that the member's followings and the piece's comments fill as much of a page in both sets.
 */
const FOLLOWINGS = 5;
const PIECE_COMMENTS = 5;
/** The piece is the one with the nearest number of comments among this many that match. */
const PIECE_CANDIDATES = 200;

/** The items ordered by how far each is from what is wanted (`off`), the nearest first. */
const nearestFirst = <T>(items: T[], off: (item: T) => number): T[] =>
  items
    .map((item) => ({ item, off: off(item) }))
    .sort((a, b) => a.off - b.off)
    .map(({ item }) => item);

const lastMonthOf = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);

/**
 * What the calls are about, by the same rules in both databases: the large set's members and pieces when it has
 * them (else the demo's), a member who follows a few, has few followers, has knacked and whose history holds a dozen items,
 * the member with the most followers, a listed and monetized piece of another artist with a few knacks.
 */
export async function pickFixture(): Promise<PickedFixture> {
  const large = (await UserModel.exists({ email: /@large\.knack\.example$/ })) !== null;
  const domain = large ? /@large\.knack\.example$/ : /@demo\.knack\.example$/;
  const artist = (await UserModel.findOne({ email: domain }, { username: 1 }).sort({ followersCount: -1 }).lean())!;
  const candidates = await UserModel.find(ours({ email: domain, followersCount: { $lte: FEW_FOLLOWERS }, followingsCount: { $gte: 2 } }), {
    username: 1,
    followingsCount: 1,
  })
    .limit(CANDIDATES)
    .lean();
  if (!candidates.length) throw new Error('No member to measure as: is the database seeded?');
  // Their history's and followings' first pages as full at both sizes (a page of one item against one of none is not
  // the same page): the first who has knacked among those whose account holds HISTORY_ITEMS postings and who follow
  // FOLLOWINGS members, else the nearest.
  const lengths = new Map(await Promise.all(candidates.map(async (candidate) => [candidate, await chainLength(userAccount(candidate._id))] as const)));
  const ranked = nearestFirst(
    candidates,
    (candidate) => Math.abs(lengths.get(candidate)! - HISTORY_ITEMS) + Math.abs((candidate.followingsCount ?? 0) - FOLLOWINGS),
  );
  let member = ranked[0]!;
  let entryId = '';
  for (const candidate of ranked) {
    const knack = await LedgerEntryModel.findOne({ kind: 'knack', actorId: candidate._id }, { _id: 1 }).lean();
    if (knack) {
      member = candidate;
      entryId = knack._id;
      break;
    }
  }
  const pieceFilter = ours({ listed: true, isPaidOut: true, ownerId: { $ne: artist._id }, reactedCount: { $gte: 2, $lte: 60 } });
  const pieces = await ContentModel.find(large ? ours({ ...pieceFilter, ownerUsername: /_\d+$/ }) : pieceFilter, {
    slug: 1,
    ownerUsername: 1,
    commentsCount: 1,
  })
    .limit(PIECE_CANDIDATES)
    .lean();
  const piece =
    nearestFirst(pieces, (candidate) => Math.abs((candidate.commentsCount ?? 0) - PIECE_COMMENTS))[0] ??
    (await ContentModel.findOne({ listed: true }, { slug: 1, ownerUsername: 1, commentsCount: 1 }).lean())!;
  const artistPiece = (await ContentModel.findOne({ ownerId: artist._id }, { _id: 1 }).lean())!;
  const subTagLabel = (await ContentModel.findById(piece._id, { subTag: 1 }).lean())!.subTag || 'Jazz';
  const subTag = (await TagModel.findOne({ labelLower: subTagLabel.toLowerCase() }, { label: 1, parentTag: 1 }).lean())!;
  const mainTag = (await TagModel.findById(subTag.parentTag, { label: 1 }).lean())!;
  return {
    member: { id: String(member._id), username: member.username },
    artist: { id: String(artist._id), username: artist.username },
    piece: { id: String(piece._id), slug: piece.slug, ownerUsername: piece.ownerUsername },
    artistPiece: { id: String(artistPiece._id) },
    mainTag: { id: String(mainTag._id), label: mainTag.label },
    subTag: { id: String(subTag._id), label: subTag.label },
    entryId: entryId || `knack:${String(piece._id)}:${String(member._id)}`,
    lastMonth: lastMonthOf(new Date()),
    shape: { historyItems: lengths.get(member)!, followings: member.followingsCount ?? 0, pieceComments: piece.commentsCount ?? 0 },
  };
}

/**
 * What `pickFixture` picks, with how full the pages about it are (`shape`): printed by the benchmark, so that two
 * sizes' picks that differ (one member's history fuller than the other's) show beside the figures they explain.
 */
export type PickedFixture = Omit<Fixture, 'threadId' | 'projectId'> & {
  shape: { historyItems: number; followings: number; pieceComments: number };
};

/** Sends a POST as a caller (an Authorization header value) and gives the answer's body; throws on an error. */
export type Poster = <T>(authorization: string, route: string, body: unknown) => Promise<T>;

/**
 * What the calls are about that the data sets lack, made through the API as a member would: the member's thread to
 * the artist, the artist's project holding their piece, and the artist's API key (its secret).
 */
export async function writeFixtureExtras(
  post: Poster,
  picked: PickedFixture,
  auth: { member: string; artist: string },
): Promise<{ fixture: Fixture; keySecret: string }> {
  const sent = await post<{ thread: { id: string } }>(auth.member, '/message/create', {
    senderId: picked.member.id,
    receiverId: picked.artist.id,
    subject: 'Hello',
    message: 'I love your work.',
  });
  const project = await post<{ project: { id: string } }>(auth.artist, '/project/save', {
    userId: picked.artist.id,
    projectName: `Bench ${Date.now()}`,
    contentIds: JSON.stringify([picked.artistPiece.id]),
  });
  const key = await post<{ secret: string }>(auth.artist, '/api-keys', { name: `bench ${Date.now()}`, scopes: ['catalogue:read', 'earnings:read'] });
  return { fixture: { ...picked, threadId: sent.thread.id, projectId: project.project.id }, keySecret: key.secret };
}
