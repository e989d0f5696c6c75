/**
 * The feeds' ranked lists and the rankings job that keeps them, on the real database with two app processes: knacks,
 * uploads and hides sent to both at once show in the feeds at once where they must (a new piece on top of Newest, a
 * hidden one gone), also in the feeds of a sub-tag, and after one run of the job every kept total equals its recount
 * from the facts, every list (per main tag and per sub-tag too) equals the sorted read it replaces, and each feed's
 * answers page through exactly that sorted read. The job counts
 * from the ledger's journal: run twice, or handed the same knacks again, it counts each knack once; what it counts
 * equals the full rebuild, also once the trend window has moved past the knacks.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { publicPages } from '../../server/lib/public-pages';
import { ours } from '../../server/lib/query';
import { ContentModel, type ContentDoc } from '../../server/modules/contents';
import { buildFeedLists, rankingsState, refreshRankings, updateRankings, RANKINGS_CONSUMER } from '../../server/modules/feeds';
import { checkRankings, FeedListModel, feedListsState, PAGE_IDS } from '../../server/modules/feeds/testing';
import { saveCheckpoint } from '../../server/modules/ledger';
import { UserModel, type UserDoc } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, knackBy, type TestMember, type TestPiece, publishPhoto } from '../helpers/ledger-factory';
import { png } from '../helpers/media';
import { startSecondApp, type SecondApp } from '../helpers/second-process';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let second: SecondApp;

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
  second = await startSecondApp();
}, 60_000);

afterAll(async () => second?.stop());

type Through = Parameters<typeof request>[0];

/** Publishes a photo through the real calls of one process (its upload kept by that process). */
const publish = async (through: Through, member: TestMember, title: string) => (await publishPhoto(through, member, title)).id;

/** Every id a feed answers, page after page of `limit` (alternating between the processes). */
async function pageThrough(url: string, limit: number, field: 'contents' | 'users' = 'contents'): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const through = pages % 2 ? second.url : app;
    const res: request.Response = await request(through)
      .get(`/api/v2${url}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      .expect(200);
    const rows = res.body[field] as { id?: string; user?: { id: string } }[];
    seen.push(...rows.map((row) => (field === 'users' ? row.user!.id : row.id!)));
    cursor = res.body.nextCursor;
    pages += 1;
  } while (cursor && pages < 100);
  return seen;
}

const sortedIds = <T extends { _id: Types.ObjectId }>(rows: T[], key: ((row: T) => number) | null) =>
  rows
    .map((row) => ({ key: key ? key(row) : 0, id: String(row._id) }))
    .sort((a, b) => b.key - a.key || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((row) => row.id);

describe('feeds from ranked lists, with two app processes', () => {
  it('when knacks, uploads and hides reach both processes at once, then new pieces top Newest and hidden ones are gone at once, and after one job run every total and list equals its recount and every feed pages through the sorted read', async () => {
    const [ana, ben] = await Promise.all([createMember(), createMember()]);
    const admin = await adminMember();
    const pieces: TestPiece[] = [];
    // Under three sub-tags of Photos; the only Nature piece is hidden below, so Nature's lists end up empty.
    const subTags = ['Travel', 'Cars', 'Travel', 'Cars', 'Travel', 'Nature'];
    for (const [i, owner] of [ana!, ben!, ana!, ben!, ana!, ben!].entries()) pieces.push(await createPiece(owner, { subTag: subTags[i] }));
    const crowd = await Promise.all(Array.from({ length: 8 }, () => createMember()));
    // A first build, so that the job and the readers go on from a checkpoint and a built list.
    await refreshRankings();

    // Knacks by the crowd (member i knacks the first i+1 pieces), each through one process; two uploads per process;
    // one piece hidden through each process: all at once.
    const knacks = crowd.flatMap((member, i) =>
      pieces.slice(0, Math.min(i + 1, pieces.length)).map((piece, j) =>
        request((i + j) % 2 ? second.url : app)
          .post('/api/v2/knack/add')
          .set(bearer(member))
          .send({ contentId: piece.id, userId: member.id }),
      ),
    );
    const uploads = [
      publish(app, ana!, 'Fresh one'),
      publish(second.url, ben!, 'Fresh two'),
      publish(app, ben!, 'Fresh three'),
      publish(second.url, ana!, 'Fresh four'),
    ];
    const hides = [
      request(app).post('/api/v2/admin/pieces/hide').set(bearer(admin)).send({ contentId: pieces[4]!.id }),
      request(second.url).post('/api/v2/admin/pieces/hide').set(bearer(admin)).send({ contentId: pieces[5]!.id }),
    ];
    const [knacked, published, hidden] = await Promise.all([Promise.all(knacks), Promise.all(uploads), Promise.all(hides)]);
    expect(knacked.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body])).toEqual([]);
    expect(hidden.map((answer) => answer.status)).toEqual([200, 200]);

    // Before the job: the four new pieces top Newest (newest first) through either process; the hidden two are gone.
    for (const through of [app, second.url]) {
      const newest = (await request(through).get('/api/v2/content/get-all?limit=50').expect(200)).body.contents.map((c: { id: string }) => c.id);
      expect(newest.slice(0, 4)).toEqual([...published].sort().reverse());
      expect(newest).not.toContain(pieces[4]!.id);
      expect(newest).not.toContain(pieces[5]!.id);
      expect(newest).toHaveLength(8);
      // The uploads are Travel pieces: they top that sub-tag's Newest too, above its built pieces but the hidden one.
      const travel = (await request(through).get('/api/v2/content/get-by-kind/new?tag=Photos&subTag=Travel&limit=50').expect(200)).body.contents.map(
        (c: { id: string }) => c.id,
      );
      expect(travel).toEqual([...[...published].sort().reverse(), pieces[2]!.id, pieces[0]!.id]);
      expect((await request(through).get('/api/v2/content/get-by-tag?tag=Nature').expect(200)).body.contents).toEqual([]);
      // And her own uploads top an artist's Newest (her pieces 0, 2 and 4; 4 is hidden).
      const hers = (await request(through).get(`/api/v2/content/get-by-kind/new?ownerId=${ana!.id}`).expect(200)).body.contents.map(
        (c: { id: string }) => c.id,
      );
      expect(hers).toEqual([...[published[0]!, published[3]!].sort().reverse(), pieces[2]!.id, pieces[0]!.id]);
    }
    // The kept totals are not yet what the facts say (the job has not run): the check sees it.
    expect((await rankingsState.check()).differences).not.toEqual([]);

    const run = await updateRankings();
    expect(run.knacks).toBe(knacked.length);
    expect((await rankingsState.check()).differences).toEqual([]);
    expect((await feedListsState.check()).differences).toEqual([]);

    // Each piece's reactions are its knacks: piece j was knacked by the crowd members i >= j.
    const stored = await ContentModel.find(
      {},
      { reactedCount: 1, listed: 1, type: 1, subTag: 1, ownerId: 1, featureRank: 1, trendScore: 1, radarScore: 1 },
    ).lean<ContentDoc[]>();
    const reacted = new Map(stored.map((piece) => [String(piece._id), piece.reactedCount]));
    expect(pieces.map((piece) => reacted.get(piece.id))).toEqual([8, 7, 6, 5, 4, 3]);

    const listed = stored.filter((piece) => piece.listed);
    for (const [kind, key] of [
      ['popular', (p: ContentDoc) => p.reactedCount],
      ['trending', (p: ContentDoc) => p.trendScore],
      ['featured', (p: ContentDoc) => p.featureRank],
      ['new', null],
    ] as const) {
      expect(await pageThrough(`/content/get-by-kind/${kind}`, 3)).toEqual(sortedIds(listed, key));
      expect(await pageThrough(`/content/get-by-tag?kind=${kind}&tag=Photos`, 4)).toEqual(sortedIds(listed, key));
      // Each sub-tag's feed, asked as Explore's chips ask it (with its main tag) and as integrators do (the sub-tag alone).
      for (const subTag of ['Travel', 'Cars', 'Nature']) {
        const ofSubTag = sortedIds(
          listed.filter((p) => p.subTag === subTag),
          key,
        );
        expect(await pageThrough(`/content/get-by-kind/${kind}?tag=Photos&subTag=${subTag}`, 2)).toEqual(ofSubTag);
        expect(await pageThrough(`/content/get-by-tag?kind=${kind}&tag=${subTag}`, 3)).toEqual(ofSubTag);
      }
      // Each artist's feed (a profile's and a piece's strips), alone and with a sub-tag.
      for (const owner of [ana!, ben!]) {
        const theirs = listed.filter((p) => String(p.ownerId) === owner.id);
        expect(await pageThrough(`/content/get-by-kind/${kind}?ownerId=${owner.id}`, 2)).toEqual(sortedIds(theirs, key));
        expect(await pageThrough(`/content/get-by-kind/${kind}?ownerId=${owner.id}&tag=Photos&subTag=Travel`, 2)).toEqual(
          sortedIds(
            theirs.filter((p) => p.subTag === 'Travel'),
            key,
          ),
        );
      }
    }
    expect(listed.filter((p) => p.subTag === 'Travel')).toHaveLength(6);
    expect(listed.filter((p) => p.subTag === 'Nature')).toHaveLength(0);
    expect(await pageThrough('/content/get-by-kind/radar?subTag=Cars', 1)).toEqual(
      sortedIds(
        listed.filter((p) => p.subTag === 'Cars' && p.radarScore > 0),
        (p) => p.radarScore,
      ),
    );
    // A sub-tag under another main tag than the one asked: no piece is of both.
    expect((await request(app).get('/api/v2/content/get-by-kind/new?tag=Music&subTag=Travel').expect(200)).body).toEqual({ contents: [], nextCursor: null });
    expect(await pageThrough('/content/get-by-kind/radar', 5)).toEqual(
      sortedIds(
        listed.filter((p) => p.radarScore > 0),
        (p) => p.radarScore,
      ),
    );

    const artists = await UserModel.find(ours({ contentsCount: { $gt: 0 } }), { followersCount: 1, trendScore: 1 }).lean<UserDoc[]>();
    expect(artists).toHaveLength(2);
    expect(await pageThrough('/user/get-users', 1, 'users')).toEqual(sortedIds(artists, null));
    expect(await pageThrough('/user/get-trending-users', 1, 'users')).toEqual(sortedIds(artists, (u) => u.trendScore));

    // A member's own list, as a visitor sees it: each of their listed pieces once, newest first. Its order is the
    // order the pieces became theirs, so two uploads of the same second through two processes may list in either
    // order (their ids order them by each process's random part, not by time): the seconds only must not go up.
    const anaAll = await ContentModel.find({ ownerId: new Types.ObjectId(ana!.id), listed: true }, { _id: 1 }).lean();
    expect(anaAll).toHaveLength(4); // two of her first three (one hidden) and her two uploads
    const own = await pageThrough(`/content/get-by-username/${ana!.username}`, 2);
    expect([...own].sort().reverse()).toEqual(sortedIds(anaAll, null));
    const seconds = own.map((id) => new Types.ObjectId(id).getTimestamp().getTime());
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  }, 180_000);
});

describe('the rankings job reads the journal', () => {
  it('when run twice, or handed the same knacks again, then each knack is counted once; its totals equal the full rebuild, also a week later', async () => {
    const owner = await createMember();
    const song = await createPiece(owner, { type: 'music' });
    const photo = await createPiece(owner);
    await refreshRankings();
    const fans = await Promise.all(Array.from({ length: 5 }, () => createMember()));
    for (const fan of fans) await knackBy(fan, song);
    await knackBy(fans[0]!, photo);

    const first = await updateRankings();
    expect(first.knacks).toBe(6);
    const again = await updateRankings();
    expect(again.knacks).toBe(0);
    // As after a crash before the checkpoint moved: the same knacks handed again count nothing more.
    await saveCheckpoint(RANKINGS_CONSUMER, 0);
    await updateRankings();

    const totals = async () =>
      (await ContentModel.find({}, { reactedCount: 1, trendScore: 1, radarScore: 1 }).lean())
        .filter((p) => [song.id, photo.id].includes(String(p._id)))
        .map((p) => [String(p._id), p.reactedCount, p.trendScore, p.radarScore])
        .sort();
    const ownerTrend = async () => (await UserModel.findById(owner.id, { trendScore: 1 }).lean())!.trendScore;
    expect(await totals()).toEqual(
      [
        [song.id, 5, 5, 6],
        [photo.id, 1, 1, 2],
      ].sort(),
    );
    expect(await ownerTrend()).toBe(6);
    expect((await rankingsState.check()).differences).toEqual([]);

    // The full rebuild finds the same figures.
    await refreshRankings();
    expect(await totals()).toEqual(
      [
        [song.id, 5, 5, 6],
        [photo.id, 1, 1, 2],
      ].sort(),
    );

    // Eight days later, with one new knack: the old ones have left the trend window; the radar is 1 + the week's.
    const later = new Date(Date.now() + 8 * 86_400_000);
    const late = await createMember();
    await knackBy(late, photo, later);
    await updateRankings(later);
    expect(await totals()).toEqual(
      [
        [song.id, 5, 0, 1],
        [photo.id, 2, 1, 2],
      ].sort(),
    );
    expect(await ownerTrend()).toBe(1);
    expect((await checkRankings(later)).differences).toEqual([]);
    await refreshRankings(later);
    expect(await totals()).toEqual(
      [
        [song.id, 5, 0, 1],
        [photo.id, 2, 1, 2],
      ].sort(),
    );

    // 31 days after publishing, both pieces leave the radar at the job's next run.
    const month = new Date(Date.now() + 31 * 86_400_000);
    await updateRankings(month);
    expect((await totals()).map((row) => row[3])).toEqual([0, 0]);
    expect((await checkRankings(month)).differences).toEqual([]);
  }, 120_000);
});

describe("the feed lists' rebuild", () => {
  it('when an artist and a sub-tag have more pieces than a stored page, then their feeds page through all of them in order, and on from a cursor given before the next build', async () => {
    const owner = await createMember();
    const count = PAGE_IDS + 12;
    // Written straight to the collection, as a bulk seed does (the rebuild then writes their owner's lists).
    await ContentModel.insertMany(
      Array.from({ length: count }, (_, i) => ({
        ownerId: new Types.ObjectId(owner.id),
        ownerUsername: owner.username,
        title: `Plane ${i}`,
        slug: `plane-${i}-${owner.id}`,
        titleWords: ['plane', String(i)],
        description: 'About it',
        tags: [{ name: 'Photos' }],
        subTag: 'Planes',
        type: 'photos',
        photoUploadId: new Types.ObjectId(),
        media: { photoKey: 'x.png', thumbKeys: {}, fileSize: 1, fileType: 'image/png' },
        knackRateMicros: 50_000,
        listed: true,
        featureRank: Date.now() + (i % 7),
      })),
    );
    await feedListsState.rebuild();
    expect((await feedListsState.check()).differences).toEqual([]);
    const planes = await ContentModel.find({ subTag: 'Planes', listed: true }, { featureRank: 1 }).lean<ContentDoc[]>();
    expect(planes).toHaveLength(count);
    expect(await pageThrough(`/content/get-by-kind/featured?ownerId=${owner.id}`, 50)).toEqual(sortedIds(planes, (p) => p.featureRank));
    expect(await pageThrough('/content/get-by-tag?tag=Planes&kind=new', 50)).toEqual(sortedIds(planes, null));

    // A build with nothing changed writes no artist's lists again.
    expect((await buildFeedLists()).artistsWritten).toBe(0);
    expect((await feedListsState.check()).differences).toEqual([]);

    // A cursor into the second stored page, given before a build that rewrote the artist's lists (their oldest piece
    // was hidden), goes on in the build it was given from, without the hidden piece.
    const newest = sortedIds(planes, null);
    const url = `/api/v2/content/get-by-kind/new?ownerId=${owner.id}&limit=50`;
    let cursor: string | null = null;
    const seen: string[] = [];
    for (let page = 0; page < 6; page += 1) {
      const res: request.Response = await request(app)
        .get(`${url}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .expect(200);
      seen.push(...res.body.contents.map((c: { id: string }) => c.id));
      cursor = res.body.nextCursor;
      if (page === 4) {
        await ContentModel.updateOne({ _id: new Types.ObjectId(newest[count - 1]) }, { $set: { listed: false } });
        expect((await buildFeedLists()).artistsWritten).toBe(1);
        publicPages.clear();
      }
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual(newest.slice(0, -1));
    expect((await feedListsState.check()).differences).toEqual([]);
    expect(await pageThrough(`/content/get-by-kind/new?ownerId=${owner.id}`, 50)).toEqual(newest.slice(0, -1));
  }, 120_000);

  it('when the last build was made before the feeds kept lists per sub-tag and per artist, then those feeds still answer all their pieces, and from their lists after the next build', async () => {
    const owner = await createMember();
    const first = await createPiece(owner, { subTag: 'Trains' });
    const second = await createPiece(owner, { subTag: 'Trains' });
    await refreshRankings();
    // As an older release left it: a build record without the sub-tags and artists' lists, and none of those lists.
    await FeedListModel.collection.updateOne({ _id: 'build' as never }, { $unset: { subTags: 1, artistLists: 1 } });
    await FeedListModel.collection.deleteMany({ _id: { $regex: '^((head|page):pieces:[a-z]+:sub:|artist:|build:artists:)' } as never });
    publicPages.clear();
    const ids = (res: request.Response) => res.body.contents.map((c: { id: string }) => c.id);
    const trains = async () => ids(await request(app).get('/api/v2/content/get-by-tag?tag=Trains&kind=new').expect(200));
    const theirs = async () => ids(await request(app).get(`/api/v2/content/get-by-kind/new?ownerId=${owner.id}`).expect(200));
    expect(await trains()).toEqual([second.id, first.id]);
    expect(await theirs()).toEqual([second.id, first.id]);
    expect((await feedListsState.check()).differences).toEqual(
      expect.arrayContaining(['pieces:new:sub:Trains: never built', `pieces:new:owner:${owner.id}: never built`]),
    );

    await updateRankings();
    expect((await feedListsState.check()).differences).toEqual([]);
    // Read from the lists alone now: with them gone (as a test of where it reads), the feeds are empty.
    await FeedListModel.collection.deleteMany({ _id: { $regex: '^(page:pieces:new:sub:Trains@|artist:)' } as never });
    publicPages.clear();
    expect(await trains()).toEqual([]);
    expect(await theirs()).toEqual([]);
  }, 120_000);

  it('when pieces were written without their lists (a bulk load), then the check names what is missing and the rebuild makes the profile and the feeds show them', async () => {
    const owner = await createMember();
    // Written straight to the collection, as a bulk seed does: on no member's list, and no list built since.
    const [loaded] = await ContentModel.insertMany([
      {
        ownerId: new Types.ObjectId(owner.id),
        ownerUsername: owner.username,
        title: 'Bulk loaded',
        slug: `bulk-loaded-${owner.id}`,
        titleWords: ['bulk', 'loaded'],
        description: 'About it',
        tags: [{ name: 'Photos' }],
        type: 'photos',
        photoUploadId: new Types.ObjectId(),
        media: { photoKey: 'x.png', thumbKeys: {}, fileSize: 1, fileType: 'image/png' },
        knackRateMicros: 50_000,
        listed: true,
        featureRank: Date.now(),
      },
    ]);
    const profile = async () =>
      (await request(app).get(`/api/v2/content/get-by-username/${owner.username}`).expect(200)).body.contents.map((c: { id: string }) => c.id);
    expect(await profile()).toEqual([]);
    const check = await feedListsState.check();
    expect(check.differences).toEqual(
      expect.arrayContaining([`owner:${owner.id}: holds 0 of the member's 1 pieces`, `owner:${owner.id}:photos: holds 0 of the member's 1 pieces`]),
    );

    await feedListsState.rebuild();
    expect((await feedListsState.check()).differences).toEqual([]);
    expect(await profile()).toEqual([String(loaded!._id)]);
    // Through this process, whose stored public answers the rebuild cleared (the other's last 10 s at most).
    const newest = (await request(app).get('/api/v2/content/get-all?limit=50').expect(200)).body.contents.map((c: { id: string }) => c.id);
    expect(newest[0]).toBe(String(loaded!._id));
  }, 120_000);
});
