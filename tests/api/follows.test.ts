/**
 * Follows on the real database: following and unfollowing (once per pair however often or at once it is asked), who
 * may ask, the counts (counted from the follows, and the members' kept totals set from them), the follower and
 * following lists with the viewer's view of each entry, paging, and the per-member limit.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { countHit, RateLimitModel } from '../../server/lib/rate-limit';
import { refreshRankings } from '../../server/modules/feeds';
import { FOLLOW_LIMIT, FOLLOW_MESSAGES, FollowModel, forgetFollowLists } from '../../server/modules/follows';
import mongoose from 'mongoose';
import { UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { freezeInWindow } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import type { Member } from '../helpers/e2e-pieces';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Member;
let bea: Member;
let cara: Member;

const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const follow = (m: Member, subject: Member, set: boolean) =>
  request(app).post('/api/v2/follow/make-following').set(bearer(m)).send({ subjectorId: subject.user.id, myuserId: m.user.id, set });
const counts = async (m: Member) => {
  const { followersCount, followingsCount } = (await request(app).get(`/api/v2/follow/get-count/${m.user.id}`).expect(200)).body as Record<string, number>;
  return { followersCount, followingsCount };
};
const kept = async (m: Member) => {
  const user = (await UserModel.findById(m.user.id, { followersCount: 1, followingsCount: 1 }).lean())!;
  return { followersCount: user.followersCount, followingsCount: user.followingsCount };
};
const usernames = (body: { entries: { user: { username: string } }[] }) => body.entries.map((entry) => entry.user.username);

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana', lastName: 'Lima' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea', lastName: 'Moon' });
  cara = await createActiveMember(app, smtp, { firstName: 'Cara', lastName: 'Nunes' });
}, 60_000);

afterAll(async () => smtp.stop());

beforeEach(async () => {
  const lists = ['follow_events', 'follow_heads'].map((name) => mongoose.connection.collection(name).deleteMany({}));
  await Promise.all([FollowModel.deleteMany({}), RateLimitModel.deleteMany({}), ...lists]);
  forgetFollowLists();
  await UserModel.updateMany({}, { $set: { followersCount: 0, followingsCount: 0 } });
});

describe('POST /follow/make-following', () => {
  it('when Bea follows Ana, then she follows her once, however often she asks, and both counts move', async () => {
    const first = await follow(bea, ana, true).expect(200);
    expect(first.body).toEqual({ isFollowing: true, subjector: { followersCount: 1, followingsCount: 0 }, me: { followersCount: 0, followingsCount: 1 } });
    await follow(bea, ana, true).expect(200);
    expect(await FollowModel.countDocuments({})).toBe(1);
    expect(await counts(ana)).toEqual({ followersCount: 1, followingsCount: 0 });
    expect(await counts(bea)).toEqual({ followersCount: 0, followingsCount: 1 });
    expect(await kept(ana)).toEqual({ followersCount: 1, followingsCount: 0 });
    expect(await kept(bea)).toEqual({ followersCount: 0, followingsCount: 1 });
  });

  it('when Bea unfollows Ana, then the follow is gone and the counts are back, and unfollowing again changes nothing', async () => {
    await follow(bea, ana, true).expect(200);
    const res = await follow(bea, ana, false).expect(200);
    expect(res.body).toEqual({ isFollowing: false, subjector: { followersCount: 0, followingsCount: 0 }, me: { followersCount: 0, followingsCount: 0 } });
    await follow(bea, ana, false).expect(200);
    expect(await FollowModel.countDocuments({})).toBe(0);
    expect(await kept(ana)).toEqual({ followersCount: 0, followingsCount: 0 });
  });

  it('when one member toggles 50 times at once, then the counts match the follows, and the next toggle sets the state asked', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => follow(bea, ana, i % 2 === 0)));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(200));
    const follows = await FollowModel.countDocuments({});
    expect(follows).toBeLessThanOrEqual(1);
    expect(await counts(ana)).toEqual({ followersCount: follows, followingsCount: 0 });
    expect(await counts(bea)).toEqual({ followersCount: 0, followingsCount: follows });

    const last = await follow(bea, ana, true).expect(200);
    expect(last.body.isFollowing).toBe(true);
    expect(await counts(ana)).toEqual({ followersCount: 1, followingsCount: 0 });
    expect(await kept(ana)).toEqual({ followersCount: 1, followingsCount: 0 });
    expect(await kept(bea)).toEqual({ followersCount: 0, followingsCount: 1 });
  });

  it('when two members follow Ana at once, then both count', async () => {
    await Promise.all([follow(bea, ana, true).expect(200), follow(cara, ana, true).expect(200)]);
    expect(await counts(ana)).toEqual({ followersCount: 2, followingsCount: 0 });
  });

  it('when a member follows themselves, for another member, someone unknown, or without signing in, then it is refused', async () => {
    const self = await follow(ana, ana, true).expect(400);
    expect(self.body.message).toBe(FOLLOW_MESSAGES.self);
    const forOther = await request(app)
      .post('/api/v2/follow/make-following')
      .set(bearer(bea))
      .send({ subjectorId: ana.user.id, myuserId: cara.user.id, set: true })
      .expect(403);
    expect(forOther.body.message).toBe(FOLLOW_MESSAGES.forSelf);
    const unknown = await request(app)
      .post('/api/v2/follow/make-following')
      .set(bearer(bea))
      .send({ subjectorId: '0123456789abcdef01234567', myuserId: bea.user.id, set: true })
      .expect(404);
    expect(unknown.body.message).toBe(FOLLOW_MESSAGES.noMember);
    await request(app).post('/api/v2/follow/make-following').send({ subjectorId: ana.user.id, myuserId: bea.user.id, set: true }).expect(401);
    await request(app).post('/api/v2/follow/make-following').set(bearer(bea)).send({ subjectorId: ana.user.id, myuserId: bea.user.id }).expect(400);
    expect(await FollowModel.countDocuments({})).toBe(0);
  });

  it('when a member changes follows past the limit, then 429 with Retry-After, and nothing changes', async () => {
    const clock = freezeInWindow(FOLLOW_LIMIT.windowMs, 1_000);
    try {
      for (let i = 0; i < FOLLOW_LIMIT.max; i += 1) await countHit(`follow:${bea.user.id}`, FOLLOW_LIMIT);
      const res = await follow(bea, ana, true).expect(429);
      expect(res.body.message).toBe(FOLLOW_MESSAGES.tooMany);
      expect(Number(res.headers['retry-after'])).toBe(59);
    } finally {
      clock.restore();
    }
    expect(await FollowModel.countDocuments({})).toBe(0);
  });
});

describe('POST /follow/remove-follower/{id}', () => {
  const remove = (owner: Member, follower: { user: { id: string } } | string) =>
    request(app)
      .post(`/api/v2/follow/remove-follower/${typeof follower === 'string' ? follower : follower.user.id}`)
      .set(bearer(owner));

  it('when Ana takes Bea off her followers, then Bea no longer follows her, both counts move, and Bea may follow her again', async () => {
    await follow(bea, ana, true).expect(200);
    await follow(cara, ana, true).expect(200);
    const res = await remove(ana, bea).expect(200);
    expect(res.body).toEqual({ isFollower: false, follower: { followersCount: 0, followingsCount: 0 }, me: { followersCount: 1, followingsCount: 0 } });
    expect(await FollowModel.find({}, { _id: 1 }).lean()).toEqual([{ _id: `${cara.user.id}:${ana.user.id}` }]);
    expect(await kept(ana)).toEqual({ followersCount: 1, followingsCount: 0 });
    expect(await kept(bea)).toEqual({ followersCount: 0, followingsCount: 0 });
    const list = await request(app).get(`/api/v2/follow/get-followers/${ana.user.id}/myuserId/${ana.user.id}`).set(bearer(ana)).expect(200);
    expect(usernames(list.body)).toEqual([cara.form.username]);

    // Again: nothing changes. Bea following again is up to her.
    expect((await remove(ana, bea).expect(200)).body.me).toEqual({ followersCount: 1, followingsCount: 0 });
    expect((await follow(bea, ana, true).expect(200)).body.isFollowing).toBe(true);
  });

  it('when Ana removes a member who follows someone else, then that follow stays', async () => {
    await follow(bea, cara, true).expect(200);
    await remove(ana, bea).expect(200);
    expect(await counts(cara)).toEqual({ followersCount: 1, followingsCount: 0 });
  });

  it('when Ana removes herself, someone unknown, or a visitor asks, then it is refused', async () => {
    expect((await remove(ana, ana).expect(400)).body.message).toBe(FOLLOW_MESSAGES.removeSelf);
    expect((await remove(ana, '0123456789abcdef01234567').expect(404)).body.message).toBe(FOLLOW_MESSAGES.noMember);
    await remove(ana, 'not-an-id').expect(400);
    await request(app).post(`/api/v2/follow/remove-follower/${bea.user.id}`).expect(401);
  });
});

describe('follows and blocks', () => {
  const block = (blocker: Member, blocked: Member, set = true) =>
    request(app).post('/api/v2/message/block').set(bearer(blocker)).send({ userId: blocker.user.id, blockedId: blocked.user.id, block: set });

  afterEach(async () => {
    await Promise.all([block(ana, bea, false).expect(200), block(bea, ana, false).expect(200)]);
  });

  it('when Ana has blocked Bea, then Bea’s follow is refused with 403, Ana’s follow of Bea with 409, and unfollowing still answers', async () => {
    await block(ana, bea).expect(200);
    const theirs = await follow(bea, ana, true).expect(403);
    expect(theirs.body.message).toBe(FOLLOW_MESSAGES.blockedByThem);
    const mine = await follow(ana, bea, true).expect(409);
    expect(mine.body.message).toBe(FOLLOW_MESSAGES.blockedByYou);
    await follow(bea, ana, false).expect(200);
    expect(await FollowModel.countDocuments({})).toBe(0);
    expect(await counts(ana)).toEqual({ followersCount: 0, followingsCount: 0 });

    await block(ana, bea, false).expect(200);
    expect((await follow(bea, ana, true).expect(200)).body.isFollowing).toBe(true);
  });

  it('when Ana blocks Bea while Bea sends follows at once, then no follow of Bea’s is left and the counts say so', async () => {
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => follow(bea, ana, true)),
      block(ana, bea),
      ...Array.from({ length: 6 }, () => follow(bea, ana, true)),
    ]);
    expect(answers[6]!.status).toBe(200);
    // Each follow either went in before the block (and the block ended it) or was refused.
    expect(answers.filter((res) => ![200, 403].includes(res.status))).toEqual([]);
    expect(await FollowModel.countDocuments({})).toBe(0);
    expect(await counts(ana)).toEqual({ followersCount: 0, followingsCount: 0 });
    expect(await kept(ana)).toEqual({ followersCount: 0, followingsCount: 0 });
    expect(await kept(bea)).toEqual({ followersCount: 0, followingsCount: 0 });
  });
});

describe('GET /follow/get-count/{id}', () => {
  it('when a signed-in member asks, then the answer says whether they follow that member; a visitor is told false', async () => {
    await follow(bea, ana, true).expect(200);
    const url = `/api/v2/follow/get-count/${ana.user.id}`;
    expect((await request(app).get(url).set(bearer(bea)).expect(200)).body).toEqual({ followersCount: 1, followingsCount: 0, isFollowing: true });
    expect((await request(app).get(url).set(bearer(cara)).expect(200)).body.isFollowing).toBe(false);
    expect((await request(app).get(url).expect(200)).body.isFollowing).toBe(false);
  });

  it('when the member does not exist, then 404', async () => {
    await request(app).get('/api/v2/follow/get-count/0123456789abcdef01234567').expect(404);
  });
});

describe('GET /follow/get-followers and get-followings', () => {
  it('when Ana looks at her followers, then the latest follow comes first, with whether she follows each back and which is her', async () => {
    await follow(bea, ana, true).expect(200);
    await follow(cara, ana, true).expect(200);
    await follow(ana, cara, true).expect(200);
    const res = await request(app).get(`/api/v2/follow/get-followers/${ana.user.id}/myuserId/${ana.user.id}`).set(bearer(ana)).expect(200);
    expect(usernames(res.body)).toEqual([cara.form.username, bea.form.username]);
    expect(res.body.entries.map((entry: { isFollowing: boolean; isMe: boolean }) => [entry.isFollowing, entry.isMe])).toEqual([
      [true, false],
      [false, false],
    ]);
    expect(res.body.nextCursor).toBeNull();

    const followings = await request(app).get(`/api/v2/follow/get-followings/${cara.user.id}/myuserId/${ana.user.id}`).set(bearer(ana)).expect(200);
    expect(usernames(followings.body)).toEqual([ana.form.username]);
    expect(followings.body.entries[0]).toMatchObject({ isFollowing: false, isMe: true });
  });

  it('when a list is paged, then each page follows the last without repeats, and a broken cursor is refused', async () => {
    await follow(bea, ana, true).expect(200);
    await follow(cara, ana, true).expect(200);
    const url = `/api/v2/follow/get-followers/${ana.user.id}/myuserId/${bea.user.id}`;
    const first = await request(app).get(`${url}?limit=1`).set(bearer(bea)).expect(200);
    expect(usernames(first.body)).toEqual([cara.form.username]);
    const second = await request(app).get(`${url}?limit=1&cursor=${first.body.nextCursor}`).set(bearer(bea)).expect(200);
    expect(usernames(second.body)).toEqual([bea.form.username]);
    expect(second.body.entries[0]).toMatchObject({ isMe: true });
    expect(second.body.nextCursor).toBeNull(); // the last page
    await request(app).get(`${url}?cursor=not-a-cursor`).set(bearer(bea)).expect(400);
  });

  it("when a signed-in member asks as another member, then 403; a visitor sees the list with nobody followed and nobody 'me'", async () => {
    await follow(bea, ana, true).expect(200);
    const other = await request(app).get(`/api/v2/follow/get-followers/${ana.user.id}/myuserId/${bea.user.id}`).set(bearer(cara)).expect(403);
    expect(other.body.message).toBe(FOLLOW_MESSAGES.notYourList);
    const visitor = await request(app).get(`/api/v2/follow/get-followers/${ana.user.id}/myuserId/${bea.user.id}`).expect(200);
    expect(visitor.body.entries).toEqual([expect.objectContaining({ isFollowing: false, isMe: false })]);
    await request(app).get(`/api/v2/follow/get-followers/0123456789abcdef01234567/myuserId/${bea.user.id}`).expect(404);
  });
});

describe('the rankings job and the kept follow totals', () => {
  it('when a kept total was lost (a process died between the follow and its total), then the next rankings pass sets it from the follows', async () => {
    await follow(bea, ana, true).expect(200);
    await follow(cara, ana, true).expect(200);
    await UserModel.updateOne({ _id: ana.user.id }, { $set: { followersCount: 7 } });
    await UserModel.updateOne({ _id: cara.user.id }, { $set: { followingsCount: 0 } });
    await refreshRankings();
    expect(await kept(ana)).toEqual({ followersCount: 2, followingsCount: 0 });
    expect(await kept(cara)).toEqual({ followersCount: 0, followingsCount: 1 });
    expect(await kept(bea)).toEqual({ followersCount: 0, followingsCount: 1 });
  });
});
