/**
 * The follow lists and the comment lists (kept by key: chains of events and entries, their heads, the members'
 * follow totals) under changes from two app processes at once, on the same pairs and the same comments: afterwards
 * the kept states' checks find nothing, and the counts and lists the API answers equal what the follows and the
 * comments say. A fact written without its event or entry (what a process that died between the two leaves) is
 * reported by the check and mended by the rebuild; a rebuild from the facts alone (the large seed's way) gives the
 * same answers.
 */
import mongoose from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { CommentModel, commentListsKeptState, type CommentDoc } from '../../server/modules/comments';
import { compactList, followListsKeptState, FollowModel, recordFollow, recordUnfollow, removeFollowsOf, type FollowDoc } from '../../server/modules/follows';
import { UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { bearer, createMember, createPiece, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { useSecondAppPerTest } from '../helpers/second-process';
import { waitUntil } from '../helpers/wait';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
}, 120_000);
const second = useSecondAppPerTest();

type Through = Parameters<typeof request>[0];

const follow = (through: Through, member: TestMember, subject: TestMember, set: boolean) =>
  request(through).post('/api/v2/follow/make-following').set(bearer(member)).send({ subjectorId: subject.id, myuserId: member.id, set });

/** Every page of a list, through the API (small pages, so that paging is part of what is checked). */
async function everyPage<T>(path: string, member: TestMember | null, items: (body: Record<string, unknown>) => T[]): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 200; pages += 1) {
    const query: string = `${path.includes('?') ? '&' : '?'}limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const req = request(app).get(`${path}${query}`);
    const body = (await (member ? req.set(bearer(member)) : req).expect(200)).body as Record<string, unknown> & { nextCursor: string | null };
    all.push(...items(body));
    cursor = body.nextCursor;
    if (!cursor) return all;
  }
  throw new Error(`${path} did not end within 200 pages`);
}

const followers = (of: TestMember, viewer: TestMember) =>
  everyPage(`/api/v2/follow/get-followers/${of.id}/myuserId/${viewer.id}`, viewer, (body) =>
    (body.entries as { user: { id: string }; isFollowing: boolean }[]).map((entry) => ({ id: entry.user.id, isFollowing: entry.isFollowing })),
  );
const followings = (of: TestMember, viewer: TestMember) =>
  everyPage(`/api/v2/follow/get-followings/${of.id}/myuserId/${viewer.id}`, viewer, (body) =>
    (body.entries as { user: { id: string } }[]).map((entry) => entry.user.id),
  );

/** What the follows say: who follows whom. */
async function followFacts(): Promise<Pick<FollowDoc, 'followerId' | 'followedId'>[]> {
  return FollowModel.find({}, { followerId: 1, followedId: 1 }).lean<Pick<FollowDoc, 'followerId' | 'followedId'>[]>();
}

/** Asserts that every member's counts, lists (with the viewer's flags) and kept totals equal the follows. */
async function expectFollowAnswersEqualFacts(members: TestMember[]): Promise<void> {
  const facts = await followFacts();
  const followersOf = (m: TestMember) => facts.filter((f) => String(f.followedId) === m.id).map((f) => String(f.followerId));
  const followingsOf = (m: TestMember) => facts.filter((f) => String(f.followerId) === m.id).map((f) => String(f.followedId));
  for (const member of members) {
    const counts = (await request(app).get(`/api/v2/follow/get-count/${member.id}`).expect(200)).body as Record<string, unknown>;
    expect(counts).toEqual({ followersCount: followersOf(member).length, followingsCount: followingsOf(member).length, isFollowing: false });
    const list = await followers(member, member);
    expect(list.map((entry) => entry.id).sort()).toEqual(followersOf(member).sort());
    // The viewer's flag on each of their followers: whether they follow that follower back.
    for (const entry of list) expect(entry.isFollowing).toBe(followingsOf(member).includes(entry.id));
    expect((await followings(member, member)).sort()).toEqual(followingsOf(member).sort());
    const user = (await UserModel.findById(member.id, { followersCount: 1, followingsCount: 1 }).lean())!;
    expect({ followersCount: user.followersCount, followingsCount: user.followingsCount }).toEqual({
      followersCount: followersOf(member).length,
      followingsCount: followingsOf(member).length,
    });
  }
}

describe('the follow lists, changed from two processes at once', () => {
  it('when followers follow and unfollow the same artists through both processes at once, then the check finds nothing and every count and list equals the follows', async () => {
    const artists = await Promise.all([createMember(), createMember()]);
    const fans = await Promise.all([createMember(), createMember(), createMember(), createMember()]);
    // Each fan toggles each artist through both processes at once, in rounds: the same pair, raced every time.
    for (let round = 0; round < 6; round += 1) {
      await Promise.all(
        fans.flatMap((fan, f) =>
          artists.flatMap((artist, a) => {
            const set = (round + f + a) % 3 !== 0;
            return [follow(app, fan, artist, set).expect(200), follow(second.url, fan, artist, (round + f) % 2 === 0).expect(200)];
          }),
        ),
      );
    }
    // And the artists follow each other and some fans back, while fans take artists off their followers.
    await Promise.all([
      follow(app, artists[0]!, artists[1]!, true).expect(200),
      follow(second.url, artists[1]!, artists[0]!, true).expect(200),
      follow(app, artists[0]!, fans[0]!, true).expect(200),
      follow(second.url, artists[0]!, fans[0]!, true).expect(200),
      request(second.url).post(`/api/v2/follow/remove-follower/${fans[1]!.id}`).set(bearer(artists[0]!)).expect(200),
    ]);

    expect(await followListsKeptState.check()).toEqual({ checked: expect.any(Number), differences: [] });
    const facts = await followFacts();
    expect(facts.length).toBeGreaterThan(0);
    // Something was undone too: more events than follows, so the lists had unfollows to skip.
    expect(await mongoose.connection.collection('follow_events').countDocuments({ kind: 'unfollowed' })).toBeGreaterThan(0);
    await expectFollowAnswersEqualFacts([...artists, ...fans]);
  }, 120_000);

  it('when a follow or an unfollow lost its events (a process died between the two), then the check says so, and the rebuild mends the counts, the lists and the totals', async () => {
    const [ana, bea, cara] = await Promise.all([createMember(), createMember(), createMember()]);
    await follow(app, bea, ana, true).expect(200);
    await follow(second.url, cara, ana, true).expect(200);
    expect((await followListsKeptState.check()).differences).toEqual([]);

    // Cara's follow goes without its unfollow events; Ana's of Bea comes without its follow events.
    await FollowModel.deleteOne({ _id: `${cara.id}:${ana.id}` });
    await FollowModel.create({ _id: `${ana.id}:${bea.id}`, followerId: ana.id, followedId: bea.id, at: new Date() });
    const { differences } = await followListsKeptState.check();
    expect(differences).toEqual(
      expect.arrayContaining([
        `followers:${ana.id}: count 2, follows 1`,
        `followings:${cara.id}: count 1, follows 0`,
        `followers:${bea.id}: count 0, follows 1`,
        `followers:${bea.id}: the follow of ${ana.id} is listed 0 times, not once`,
        `followings:${ana.id}: the follow of ${bea.id} is listed 0 times, not once`,
      ]),
    );

    await followListsKeptState.rebuild();
    expect((await followListsKeptState.check()).differences).toEqual([]);
    await expectFollowAnswersEqualFacts([ana, bea, cara]);
    expect((await followers(bea, bea)).map((entry) => entry.id)).toEqual([ana.id]);
  }, 60_000);

  it('when the events are built from the follows alone (at start, or by the large seed’s rebuild), then the answers are the same, and a rebuild changes nothing', async () => {
    const members = await Promise.all([createMember(), createMember(), createMember(), createMember()]);
    for (const [i, member] of members.entries()) {
      for (const other of members.slice(i + 1)) await follow(i % 2 ? app : second.url, member, other, true).expect(200);
    }
    await follow(app, members[0]!, members[3]!, false).expect(200);
    const before = await Promise.all(members.map((m) => followers(m, m)));
    await Promise.all(['follow_events', 'follow_heads'].map((name) => mongoose.connection.collection(name).deleteMany({})));
    await UserModel.updateMany({}, { $set: { followersCount: 7, followingsCount: 7 } });
    await seedReferenceData(); // what every start runs: it builds the lists when there are follows and no events

    expect((await followListsKeptState.check()).differences).toEqual([]);
    expect(await Promise.all(members.map((m) => followers(m, m)))).toEqual(before);
    await expectFollowAnswersEqualFacts(members);
    const events = await mongoose.connection.collection('follow_events').countDocuments({});
    await followListsKeptState.rebuild();
    expect(await mongoose.connection.collection('follow_events').countDocuments({})).toBe(events);
  }, 60_000);
});

describe('the follow lists when follows end without an unfollow', () => {
  it('when a member blocks another through one process and their account is deleted through the other, then the check finds nothing and the others’ counts and lists say so', async () => {
    const [gone, ana, bea, cara] = await Promise.all([createMember(), createMember(), createMember(), createMember()]);
    await Promise.all([
      follow(app, ana, gone, true).expect(200),
      follow(second.url, bea, gone, true).expect(200),
      follow(app, gone, cara, true).expect(200),
      follow(second.url, gone, ana, true).expect(200),
      follow(app, bea, cara, true).expect(200),
    ]);
    // Bea blocks the member (both follows between them end), then the account's follows are removed as its deletion does.
    await request(second.url).post('/api/v2/message/block').set(bearer(bea)).send({ userId: bea.id, blockedId: gone.id, block: true }).expect(200);
    expect(await removeFollowsOf(gone.id)).toBe(3);

    expect((await followListsKeptState.check()).differences).toEqual([]);
    expect(await followFacts()).toHaveLength(1);
    await expectFollowAnswersEqualFacts([gone, ana, bea, cara]);
  }, 60_000);
});

const say = (through: Through, member: TestMember, piece: TestPiece, comment: string) =>
  request(through).post('/api/v2/comment/add').set(bearer(member)).send({ comment, userId: member.id, ownerId: piece.ownerId, contentId: piece.id });
const remove = (through: Through, member: TestMember, commentId: string) => request(through).post(`/api/v2/comment/delete/${commentId}`).set(bearer(member));

const commentIds = (body: Record<string, unknown>) => (body.comments as { id: string }[]).map((comment) => comment.id);

/** Asserts that each member's comments and each feed, through the API, are the comments not removed. */
async function expectCommentAnswersEqualFacts(members: TestMember[], fan: TestMember, followed: TestMember[]): Promise<void> {
  const live = await CommentModel.find({ removedAt: null }).lean<CommentDoc[]>();
  for (const member of members) {
    const listed = await everyPage(`/api/v2/comment/get-by-user/${member.id}`, null, commentIds);
    expect(listed.sort()).toEqual(
      live
        .filter((c) => String(c.commentorId) === member.id)
        .map((c) => c._id)
        .sort(),
    );
  }
  const feed = await everyPage('/api/v2/comment/get-feed', fan, commentIds);
  expect(feed.sort()).toEqual(
    live
      .filter((c) => followed.some((artist) => artist.id === String(c.ownerId)))
      .map((c) => c._id)
      .sort(),
  );
}

describe('the comment lists, changed from two processes at once', () => {
  it('when members comment on the same pieces and remove comments through both processes at once, then the check finds nothing and the lists and the feed equal the comments', async () => {
    const artists = await Promise.all([createMember(), createMember(), createMember()]);
    const pieces = await Promise.all(artists.map((artist) => createPiece(artist)));
    const writers = await Promise.all([createMember(), createMember(), createMember()]);
    const fan = await createMember();
    await follow(app, fan, artists[0]!, true).expect(200);
    await follow(second.url, fan, artists[1]!, true).expect(200);

    for (let round = 0; round < 4; round += 1) {
      await Promise.all(
        writers.flatMap((writer, w) =>
          pieces.map((piece, p) => say((w + p + round) % 2 ? app : second.url, writer, piece, `Round ${round} by ${w} on ${p}`).expect(201)),
        ),
      );
      await RateLimitModel.deleteMany({});
    }
    // Every third comment is removed by its author through both processes at once: one removal counts.
    const written = await CommentModel.find({}, { commentorId: 1 }).lean<Pick<CommentDoc, '_id' | 'commentorId'>[]>();
    const removals = written.filter((_, i) => i % 3 === 0);
    await Promise.all(
      removals.map(async (comment) => {
        const author = writers.find((writer) => writer.id === String(comment.commentorId))!;
        const answers = await Promise.all([remove(app, author, comment._id), remove(second.url, author, comment._id)]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
      }),
    );

    expect(await commentListsKeptState.check()).toEqual({ checked: expect.any(Number), differences: [] });
    expect(written).toHaveLength(36);
    await expectCommentAnswersEqualFacts(writers, fan, [artists[0]!, artists[1]!]);
  }, 120_000);

  it('when a comment lost its list entries (a process died between the two), then the check says so, and the rebuild puts it in both lists', async () => {
    const [ana, bea, fan] = await Promise.all([createMember(), createMember(), createMember()]);
    const piece = await createPiece(ana);
    await follow(app, fan, ana, true).expect(200);
    await say(second.url, bea, piece, 'Listed').expect(201);
    const lost = `${piece.id}-2`;
    await CommentModel.create({ _id: lost, kind: 'comment', contentId: piece.id, ownerId: ana.id, commentorId: bea.id, text: 'Unlisted', at: new Date() });

    expect((await commentListsKeptState.check()).differences).toEqual([`by:${bea.id}: misses comment ${lost}`, `on:${ana.id}: misses comment ${lost}`]);
    await commentListsKeptState.rebuild();
    expect((await commentListsKeptState.check()).differences).toEqual([]);
    await expectCommentAnswersEqualFacts([bea], fan, [ana]);

    // From the comments alone (a database from before the lists, or the large seed's), the same answers.
    await Promise.all(['comment_lists', 'comment_list_heads'].map((name) => mongoose.connection.collection(name).deleteMany({})));
    await seedReferenceData(); // what every start runs: it builds the lists when there are comments and no entries
    expect((await commentListsKeptState.check()).differences).toEqual([]);
    await expectCommentAnswersEqualFacts([bea], fan, [ana]);
  }, 60_000);
});

describe('a list that many unfollows made long', () => {
  it('when followers come and go hundreds of times, then the list is compacted, and its pages, counts and the feed stay equal to the follows', async () => {
    const [artist, other, stayer, churner, late] = await Promise.all([createMember(), createMember(), createMember(), createMember(), createMember()]);
    const piece = await createPiece(other);
    await follow(app, stayer, artist, true).expect(200);
    await follow(app, churner, other, true).expect(200); // the churner's oldest follow: the feed must still find it
    await say(second.url, stayer, piece, 'On the other artist').expect(201);
    // Hundreds of events in both lists, each change through the service as a request makes it (past the rate limit).
    for (let i = 0; i < 120; i += 1) {
      await recordFollow(churner.id, artist.id, new Date());
      await recordUnfollow(churner.id, artist.id, new Date());
    }
    await recordFollow(late.id, artist.id, new Date());
    // The copy is made after an unfollow, without the caller waiting for it: the one it started may still run.
    await waitUntil(async () => Boolean(await mongoose.connection.collection('follow_copy_pointers').findOne({ _id: `followers:${artist.id}` as never })), {
      what: 'the followers list to be compacted',
    });
    await compactList('followings', churner.id);
    expect(await mongoose.connection.collection('follow_copy_pointers').countDocuments({ _id: `followings:${churner.id}` as never })).toBe(1);
    // Changes after the copies: read from the events, then the copies.
    await follow(second.url, churner, artist, true).expect(200);
    await follow(app, late, artist, false).expect(200);

    expect((await followListsKeptState.check()).differences).toEqual([]);
    await expectFollowAnswersEqualFacts([artist, other, stayer, churner, late]);
    const firstPage = (await request(app).get(`/api/v2/follow/get-followers/${artist.id}/myuserId/${artist.id}?limit=50`).set(bearer(artist)).expect(200))
      .body as { entries: { user: { id: string } }[]; nextCursor: string | null };
    // Newest first, past 480 events of comings and goings, in one page.
    expect(firstPage.entries.map((entry) => entry.user.id)).toEqual([churner.id, stayer.id]);
    expect(firstPage.nextCursor).toBeNull();
    expect(await everyPage('/api/v2/comment/get-feed', churner, commentIds)).toHaveLength(1);

    // A rebuild keeps the copies (it appends, never renumbers), and the check still finds nothing.
    await followListsKeptState.rebuild();
    expect((await followListsKeptState.check()).differences).toEqual([]);
  }, 120_000);
});
