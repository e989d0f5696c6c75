/**
 * Ids in any letter case, on the real database. The contract takes an id in upper or lower case; every key built from
 * an id must still be one per thing: a follow (20 spellings of one member at once follow her once), "you cannot
 * follow yourself", a knack and a play, an embed play, a block, a message's sides. And the repair of documents older
 * code wrote under a key spelled another way: the rankings job merges them and the counts come out right, however
 * often it runs.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { ContentModel } from '../../server/modules/contents';
import { refreshRankings } from '../../server/modules/feeds';
import { FOLLOW_MESSAGES, FollowModel } from '../../server/modules/follows';
import { LedgerEntryModel } from '../../server/modules/ledger';
import { BlockModel, BoxModel, MESSAGE_MESSAGES } from '../../server/modules/messages';
import { EmbedPlayModel } from '../../server/modules/share';
import { UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { bearer, createMember, createPiece, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;

/** The id with its letters in the case `mask`'s bits choose (bit i set: the i-th letter in capitals). */
function spelled(id: string, mask: number): string {
  let letter = 0;
  return [...id]
    .map((char) => {
      if (!/[a-f]/.test(char)) return char;
      const upper = (mask >> letter++) & 1;
      return upper ? char.toUpperCase() : char;
    })
    .join('');
}

/** An id with at least `n` letters (ObjectIds are random: a few have fewer). */
async function memberWithLetters(n: number): Promise<TestMember> {
  for (;;) {
    const member = await createMember();
    if ([...member.id].filter((char) => /[a-f]/.test(char)).length >= n) return member;
  }
}

const follow = (from: TestMember, subjectorId: string, myuserId = from.id) =>
  request(app).post('/api/v2/follow/make-following').set(bearer(from)).send({ subjectorId, myuserId, set: true });
const kept = async (member: TestMember) => (await UserModel.findById(member.id, { followersCount: 1, followingsCount: 1 }).lean())!;

beforeAll(() => {
  app = createTestApp();
});

beforeEach(async () => {
  await clearDatabase();
  [ana, bea] = await Promise.all([memberWithLetters(5), memberWithLetters(5)]);
});

describe('follows', () => {
  it('when Bea sends 20 follows of Ana at once, each with Ana’s id in another letter case, then she follows her once and Ana has 1 follower', async () => {
    const spellings = Array.from({ length: 20 }, (_, i) => spelled(ana.id, i + 1));
    expect(new Set(spellings).size).toBe(20);
    const answers = await Promise.all(spellings.map((id) => follow(bea, id)));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect(await FollowModel.find({}, { _id: 1 }).lean()).toEqual([{ _id: `${bea.id}:${ana.id}` }]);
    const counts = await request(app).get(`/api/v2/follow/get-count/${ana.id.toUpperCase()}`).set(bearer(bea)).expect(200);
    expect(counts.body).toEqual({ followersCount: 1, followingsCount: 0, isFollowing: true });
    expect(await kept(ana)).toMatchObject({ followersCount: 1 });
    expect(await kept(bea)).toMatchObject({ followingsCount: 1 });
    await refreshRankings();
    expect(await kept(ana)).toMatchObject({ followersCount: 1 });
  });

  it('when Ana follows herself with her id in capitals (as herself in capitals too), then it is refused and nothing is written', async () => {
    const res = await follow(ana, ana.id.toUpperCase()).expect(400);
    expect(res.body.message).toBe(FOLLOW_MESSAGES.self);
    await follow(ana, spelled(ana.id, 1), spelled(ana.id, 2)).expect(400);
    expect(await FollowModel.countDocuments({})).toBe(0);
  });

  it('when the follower list is asked with both ids in capitals, then it is the same list, with Bea as the viewer', async () => {
    await follow(bea, ana.id).expect(200);
    const res = await request(app).get(`/api/v2/follow/get-followers/${ana.id.toUpperCase()}/myuserId/${bea.id.toUpperCase()}`).set(bearer(bea)).expect(200);
    expect(res.body.entries).toEqual([expect.objectContaining({ isMe: true, user: expect.objectContaining({ id: bea.id }) })]);
  });
});

describe('knacks, plays and embed plays', () => {
  it('when Bea knacks a piece with its id in two letter cases, then there is one knack', async () => {
    const photo = await createPiece(ana);
    await request(app).post('/api/v2/knack/add').set(bearer(bea)).send({ contentId: photo.id.toUpperCase(), userId: bea.id.toUpperCase() }).expect(200);
    await request(app).post('/api/v2/knack/add').set(bearer(bea)).send({ contentId: photo.id, userId: bea.id }).expect(200);
    expect(await LedgerEntryModel.find({}, { _id: 1 }).lean()).toEqual([{ _id: `knack:${photo.id}:${bea.id}` }]);
  });

  it('when a song is played with its id in capitals, then the play counts for the knack sent with the id in lower case', async () => {
    const song = await createPiece(ana, { type: 'music' });
    await ContentModel.updateOne({ _id: song.id }, { $set: { 'media.duration': 0.002, 'media.status': 'ready' } });
    const play = await request(app).post('/api/v2/knack/play').set(bearer(bea)).send({ contentId: song.id.toUpperCase() }).expect(201);
    const res = await request(app)
      .post('/api/v2/knack/add')
      .set(bearer(bea))
      .send({ contentId: song.id, userId: bea.id, playId: play.body.playId })
      .expect(200);
    expect(res.body.reactedCount).toBe(1);
  });

  it('when one visitor plays an embedded piece with its id in 5 letter cases at once, then one play is counted', async () => {
    const song = await createPiece(ana, { type: 'music' });
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        request(app)
          .post('/api/v2/content/react')
          .set('User-Agent', 'Embed')
          .send({ contentId: spelled(song.id, i) }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(5).fill(200));
    expect(await EmbedPlayModel.countDocuments({})).toBe(1);
    await refreshRankings();
    expect((await ContentModel.findById(song.id).lean())!.playCount).toBe(1);
  });
});

describe('messages', () => {
  it('when Bea blocks Ana with Ana’s id in capitals, then Ana’s messages are refused, and unblocking in lower case unblocks', async () => {
    await request(app).post('/api/v2/message/block').set(bearer(bea)).send({ userId: bea.id, blockedId: ana.id.toUpperCase(), block: true }).expect(200);
    const write = () =>
      request(app).post('/api/v2/message/create').set(bearer(ana)).send({ senderId: ana.id, receiverId: bea.id, subject: 'Hi', message: 'Hello' });
    expect((await write().expect(403)).body.message).toBe(MESSAGE_MESSAGES.blocked);
    await request(app).post('/api/v2/message/block').set(bearer(bea)).send({ userId: bea.id, blockedId: ana.id, block: false }).expect(200);
    await write().expect(201);
  });

  it('when Ana writes to Bea with Bea’s id in capitals, then Bea opens the thread; writing to herself in capitals is refused', async () => {
    const sent = await request(app)
      .post('/api/v2/message/create')
      .set(bearer(ana))
      .send({ senderId: ana.id.toUpperCase(), receiverId: bea.id.toUpperCase(), subject: 'Hi', message: 'Hello' })
      .expect(201);
    const threadId = sent.body.thread.id as string;
    expect((await request(app).get(`/api/v2/message/thread/${threadId.toUpperCase()}`).set(bearer(bea)).expect(200)).body.messages).toHaveLength(1);
    expect(await BoxModel.find({}, { _id: 1 }).sort({ _id: 1 }).lean()).toEqual(
      [`${threadId}:${ana.id}`, `${threadId}:${bea.id}`].sort().map((_id) => ({ _id })),
    );
    const self = await request(app)
      .post('/api/v2/message/create')
      .set(bearer(ana))
      .send({ senderId: ana.id, receiverId: ana.id.toUpperCase(), subject: 'Me', message: 'Note to self' })
      .expect(400);
    expect(self.body.message).toBe(MESSAGE_MESSAGES.toSelf);
  });
});

describe('the repair of keys older code wrote with an id in capitals', () => {
  it('when follows, embed plays, a block and a message side were keyed by ids in capitals, then the rankings job merges them, and again changes nothing', async () => {
    const cara = await memberWithLetters(5);
    const song = await createPiece(ana, { type: 'music' });
    const at = new Date('2030-01-02T10:00:00Z');
    const asObjectId = (id: string) => new Types.ObjectId(id);
    // As the old code wrote them: the key from the id as sent, the fields as ObjectIds.
    await FollowModel.insertMany([
      { _id: `${bea.id}:${ana.id}`, followerId: asObjectId(bea.id), followedId: asObjectId(ana.id), at },
      { _id: `${bea.id}:${ana.id.toUpperCase()}`, followerId: asObjectId(bea.id), followedId: asObjectId(ana.id), at },
      { _id: `${bea.id}:${spelled(ana.id, 5)}`, followerId: asObjectId(bea.id), followedId: asObjectId(ana.id), at },
      { _id: `${cara.id}:${spelled(ana.id, 3)}`, followerId: asObjectId(cara.id), followedId: asObjectId(ana.id), at },
      { _id: `${ana.id}:${ana.id.toUpperCase()}`, followerId: asObjectId(ana.id), followedId: asObjectId(ana.id), at },
    ]);
    await EmbedPlayModel.insertMany([
      { _id: `play:${song.id}:hvisitor:2030-01-02`, contentId: asObjectId(song.id), at },
      { _id: `play:${song.id.toUpperCase()}:hvisitor:2030-01-02`, contentId: asObjectId(song.id), at },
      { _id: `play:${spelled(song.id, 1)}:u${bea.id}:2030-01-02`, contentId: asObjectId(song.id), at },
    ]);
    await BlockModel.create({ _id: `${bea.id}:${cara.id.toUpperCase()}`, blockerId: asObjectId(bea.id), blockedId: asObjectId(cara.id), at });
    const sent = await request(app)
      .post('/api/v2/message/create')
      .set(bearer(ana))
      .send({ senderId: ana.id, receiverId: bea.id, subject: 'Hi', message: 'Hello' });
    const threadId = sent.body.thread.id as string;
    const beaSide = (await BoxModel.findById(`${threadId}:${bea.id}`).lean())!;
    await BoxModel.deleteOne({ _id: beaSide._id });
    await BoxModel.create({ ...beaSide, _id: `${threadId}:${bea.id.toUpperCase()}` });

    for (let run = 0; run < 2; run += 1) {
      await refreshRankings();
      expect(await FollowModel.find({}, { _id: 1 }).sort({ _id: 1 }).lean()).toEqual(
        [`${bea.id}:${ana.id}`, `${cara.id}:${ana.id}`].sort().map((_id) => ({ _id })),
      );
      expect(await kept(ana)).toMatchObject({ followersCount: 2, followingsCount: 0 });
      expect(await kept(bea)).toMatchObject({ followersCount: 0, followingsCount: 1 });
      expect(await EmbedPlayModel.find({}, { _id: 1 }).sort({ _id: 1 }).lean()).toEqual(
        [`play:${song.id}:hvisitor:2030-01-02`, `play:${song.id}:u${bea.id}:2030-01-02`].sort().map((_id) => ({ _id })),
      );
      expect((await ContentModel.findById(song.id).lean())!.playCount).toBe(2);
      expect(await BlockModel.find({}, { _id: 1 }).lean()).toEqual([{ _id: `${bea.id}:${cara.id}` }]);
      expect(await BoxModel.exists({ _id: `${threadId}:${bea.id}` })).toBeTruthy();
      expect(await BoxModel.countDocuments({})).toBe(2);
    }
    // The block holds now, and Bea reads her side of the thread again.
    const refused = await request(app)
      .post('/api/v2/message/create')
      .set(bearer(cara))
      .send({ senderId: cara.id, receiverId: bea.id, subject: 'Hi', message: 'Hello' });
    expect(refused.status).toBe(403);
    await request(app).get(`/api/v2/message/thread/${threadId}`).set(bearer(bea)).expect(200);
  });
});
