/**
 * Comments and shares on the real database: writing (the rules and their messages, text kept as typed, times in a
 * song, the per-member limit), the piece's comments paged by key, removal by those allowed (once, however often
 * at once), a member's comments, the feed of followed artists' pieces, the admins' list, and the kept count (moved
 * at once, repaired by the rankings job).
 */
import request from 'supertest';
import { Types } from 'mongoose';
import { seedReferenceData } from '../../server/db/seed';
import { countHit, RateLimitModel } from '../../server/lib/rate-limit';
import { COMMENT_LIMIT, COMMENT_MESSAGES, CommentModel } from '../../server/modules/comments';
import { ContentModel } from '../../server/modules/contents';
import { refreshRankings } from '../../server/modules/feeds';
import { recordFollow } from '../../server/modules/follows';
import { createTestApp } from '../helpers/app';
import { freezeInWindow } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, type TestMember, type TestPiece } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;
let cara: TestMember;
let photo: TestPiece;
let song: TestPiece;

interface CommentBody {
  id: string;
  kind: string;
  description: string;
  commentorUsername: string;
  atSeconds: number | null;
  sharedComment: { id: string; description: string } | null;
}

const say = (member: TestMember, piece: TestPiece, comment: string, extra: Record<string, unknown> = {}) =>
  request(app)
    .post('/api/v2/comment/add')
    .set(bearer(member))
    .send({ comment, userId: member.id, ownerId: piece.ownerId, contentId: piece.id, ...extra });
const share = (member: TestMember, piece: TestPiece, comment: string, extra: Record<string, unknown> = {}) =>
  request(app)
    .post('/api/v2/comment/add-share')
    .set(bearer(member))
    .send({ comment, userId: member.id, ownerId: piece.ownerId, contentId: piece.id, ...extra });
const remove = (member: TestMember, commentId: string) => request(app).post(`/api/v2/comment/delete/${commentId}`).set(bearer(member));
const pageOf = async (piece: TestPiece, query = '', member?: TestMember) => {
  const req = request(app).get(`/api/v2/comment/get-by-content/${piece.id}${query}`);
  const res = await (member ? req.set(bearer(member)) : req).expect(200);
  return res.body as { comments: CommentBody[]; nextCursor: string | null; total: number };
};
const keptCount = async (piece: TestPiece) => (await ContentModel.findById(piece.id, { commentsCount: 1 }).lean())!.commentsCount;
const texts = (page: { comments: CommentBody[] }) => page.comments.map((comment) => comment.description);

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
});

beforeEach(async () => {
  await clearDatabase();
  [ana, bea, cara] = await Promise.all([createMember(), createMember(), createMember()]);
  photo = await createPiece(ana, { title: 'Harbour at dawn' });
  song = await createPiece(ana, { title: 'Night tune', type: 'music' });
  await ContentModel.updateOne({ _id: song.id }, { $set: { 'media.duration': 180 } });
});

describe('POST /comment/add', () => {
  it('when Bea comments on Ana’s photo, then everyone sees it with her name, photo and time, and both counts move', async () => {
    const res = await say(bea, photo, '  Lovely light  ').expect(201);
    expect(res.body).toEqual({
      message: COMMENT_MESSAGES.added,
      commentsCount: 1,
      comment: {
        id: `${photo.id}-1`,
        kind: 'comment',
        contentId: photo.id,
        contentTitle: 'Harbour at dawn',
        ownerId: ana.id,
        ownerUsername: ana.username,
        commentorId: bea.id,
        commentorName: 'Test Member',
        commentorUsername: bea.username,
        commentorPhoto: null,
        description: 'Lovely light',
        when: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        atSeconds: null,
        sharedComment: null,
      },
    });
    const page = await pageOf(photo);
    expect(page.comments).toEqual([res.body.comment]);
    expect(page.total).toBe(1);
    expect(await keptCount(photo)).toBe(1);
    const detail = await request(app).get(`/api/v2/content/detail/${photo.id}/for-user/guest`).expect(200);
    expect(detail.body.commentsCount).toBe(1);
  });

  it('when a comment holds markup, then it is kept and answered as the same text', async () => {
    const markup = '<img src=x onerror=alert(1)> & <b>bold</b>';
    await say(bea, photo, markup).expect(201);
    expect(texts(await pageOf(photo))).toEqual([markup]);
    expect((await CommentModel.findById(`${photo.id}-1`).lean())!.text).toBe(markup);
  });

  it('when the comment is empty or too long, then 400 with the exact message, and nothing is written', async () => {
    for (const empty of ['', '   \n ']) {
      const res = await say(bea, photo, empty).expect(400);
      expect(res.body.message).toBe('You should input comment');
      expect(res.body.errors).toEqual([{ path: 'comment', message: 'You should input comment' }]);
    }
    const long = await say(bea, photo, 'a'.repeat(2001)).expect(400);
    expect(long.body.message).toBe('A comment can be at most 2,000 characters.');
    // Characters as people count them: 2,000 emoji (4,000 UTF-16 units) are 2,000 characters.
    await say(bea, photo, '🎵'.repeat(2000)).expect(201);
    expect(await CommentModel.countDocuments({})).toBe(1);
  });

  it('when the owner comments on her own piece, someone comments for another, names the wrong owner, or is not signed in, then it is refused', async () => {
    expect((await say(ana, photo, 'Mine').expect(403)).body.message).toBe(COMMENT_MESSAGES.ownPiece);
    const forOther = await request(app)
      .post('/api/v2/comment/add')
      .set(bearer(bea))
      .send({ comment: 'Hi', userId: cara.id, ownerId: ana.id, contentId: photo.id })
      .expect(403);
    expect(forOther.body.message).toBe(COMMENT_MESSAGES.asYourself);
    const wrongOwner = await request(app)
      .post('/api/v2/comment/add')
      .set(bearer(bea))
      .send({ comment: 'Hi', userId: bea.id, ownerId: cara.id, contentId: photo.id })
      .expect(400);
    expect(wrongOwner.body.message).toBe(COMMENT_MESSAGES.wrongOwner);
    await request(app).post('/api/v2/comment/add').send({ comment: 'Hi', userId: bea.id, ownerId: ana.id, contentId: photo.id }).expect(401);
    const unknown = await request(app)
      .post('/api/v2/comment/add')
      .set(bearer(bea))
      .send({ comment: 'Hi', userId: bea.id, ownerId: ana.id, contentId: String(new Types.ObjectId()) })
      .expect(404);
    expect(unknown.body.message).toBe(COMMENT_MESSAGES.noPiece);
    expect(await CommentModel.countDocuments({})).toBe(0);
  });

  it('when the piece is private, then nobody but its owner can comment on it or read its comments', async () => {
    await say(bea, photo, 'Before').expect(201);
    await ContentModel.updateOne({ _id: photo.id }, { $set: { 'setting.public': false, 'setting.private': true } });
    await say(bea, photo, 'After').expect(404);
    await request(app).get(`/api/v2/comment/get-by-content/${photo.id}`).expect(404);
    await request(app).get(`/api/v2/comment/get-by-content/${photo.id}`).set(bearer(bea)).expect(404);
    expect(texts(await pageOf(photo, '', ana))).toEqual(['Before']);
    expect((await request(app).get(`/api/v2/comment/get-by-user/${bea.id}`).expect(200)).body.comments).toEqual([]);
  });

  it('when a comment on a song carries the time in the track, then it is kept; on a photo or past the end it is refused', async () => {
    const timed = await say(bea, song, 'That drop!', { atSeconds: 3.04 }).expect(201);
    expect(timed.body.comment.atSeconds).toBe(3);
    expect((await pageOf(song)).comments[0]!.atSeconds).toBe(3);
    expect((await say(bea, photo, 'When?', { atSeconds: 3 }).expect(400)).body.message).toBe(COMMENT_MESSAGES.notASong);
    expect((await say(bea, song, 'Later', { atSeconds: 181 }).expect(400)).body.message).toBe(COMMENT_MESSAGES.pastTheEnd);
  });

  it('when a member comments past the limit, then 429 with Retry-After, and nothing is written', async () => {
    // Inside one window of the limit, whatever the clock says (the windows are fixed, counted from the epoch).
    const clock = freezeInWindow(COMMENT_LIMIT.windowMs, 1_000);
    try {
      for (let i = 0; i < COMMENT_LIMIT.max; i += 1) await countHit(`comment:${bea.id}`, COMMENT_LIMIT);
      const res = await say(bea, photo, 'One more').expect(429);
      expect(res.body.message).toBe(COMMENT_MESSAGES.tooMany);
      expect(Number(res.headers['retry-after'])).toBe(59);
      expect(await CommentModel.countDocuments({})).toBe(0);
    } finally {
      clock.restore();
    }
  });

  it('when 20 comments arrive at once, then each gets its own number, none is lost, and the count is exact', async () => {
    const members = await Promise.all(Array.from({ length: 10 }, () => createMember()));
    const answers = await Promise.all(members.flatMap((member) => [say(member, photo, `${member.username} 1`), say(member, photo, `${member.username} 2`)]));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
    const ids = answers.map((res) => (res.body as { comment: CommentBody }).comment.id);
    expect(new Set(ids).size).toBe(20);
    expect(ids.map((id) => Number(id.split('-')[1])).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await keptCount(photo)).toBe(20);
    expect((await pageOf(photo, '?limit=50')).comments).toHaveLength(20);
  });
});

describe('GET /comment/get-by-content/{id}', () => {
  it('when a piece has 45 comments, then pages of 20 come newest first without repeats, and a foreign or broken cursor is refused', async () => {
    const members = await Promise.all(Array.from({ length: 5 }, () => createMember()));
    for (let i = 0; i < 45; i += 1) await say(members[i % 5]!, photo, `Comment ${i + 1}`).expect(201);
    const first = await pageOf(photo);
    expect(texts(first)).toEqual(Array.from({ length: 20 }, (_, i) => `Comment ${45 - i}`));
    expect(first.total).toBe(45);
    const second = await pageOf(photo, `?cursor=${first.nextCursor}`);
    expect(texts(second)).toEqual(Array.from({ length: 20 }, (_, i) => `Comment ${25 - i}`));
    const third = await pageOf(photo, `?cursor=${second.nextCursor}`);
    expect(texts(third)).toEqual(['Comment 5', 'Comment 4', 'Comment 3', 'Comment 2', 'Comment 1']);
    expect(third.nextCursor).toBeNull();

    await request(app).get(`/api/v2/comment/get-by-content/${song.id}?cursor=${first.nextCursor}`).expect(400);
    await request(app).get(`/api/v2/comment/get-by-content/${photo.id}?cursor=broken`).expect(400);
  });

  it('when comments are removed, then a page skips them and still holds the next ones', async () => {
    for (let i = 1; i <= 6; i += 1) await say(i % 2 ? bea : cara, photo, `Comment ${i}`).expect(201);
    await remove(bea, `${photo.id}-5`).expect(200);
    await remove(cara, `${photo.id}-4`).expect(200);
    const first = await pageOf(photo, '?limit=2');
    expect(texts(first)).toEqual(['Comment 6', 'Comment 3']);
    expect(texts(await pageOf(photo, `?limit=2&cursor=${first.nextCursor}`))).toEqual(['Comment 2', 'Comment 1']);
    expect(first.total).toBe(4);
  });

  it('when a cursor is forged to start past the thread’s end, then 400 with the reload message, before any page is read', async () => {
    for (let i = 1; i <= 3; i += 1) await say(bea, photo, `Comment ${i}`).expect(201);
    // The position the old readable cursors carried, set far past the 3 comments: each page would read 250 missing numbers.
    const forged = Buffer.from(JSON.stringify([Number.MAX_SAFE_INTEGER, photo.id])).toString('base64url');
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(app).get(`/api/v2/comment/get-by-content/${photo.id}?cursor=${forged}`)));
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(
        'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.',
      );
      expect(answer.body.nextCursor).toBeUndefined();
    }
    const last = await pageOf(photo, '?limit=2');
    expect(texts(await pageOf(photo, `?limit=2&cursor=${last.nextCursor}`))).toEqual(['Comment 1']);
  });
});

describe('POST /comment/delete/{commentId}', () => {
  it('when the author, the piece’s owner or an admin removes a comment, then it is gone and the count goes down; anyone else gets 403', async () => {
    await say(bea, photo, 'By Bea').expect(201);
    await say(cara, photo, 'By Cara').expect(201);
    await say(bea, photo, 'By Bea again').expect(201);
    const admin = await adminMember();

    expect((await remove(cara, `${photo.id}-1`).expect(403)).body.message).toBe(COMMENT_MESSAGES.notYours);
    expect((await remove(bea, `${photo.id}-1`).expect(200)).body).toEqual({ message: COMMENT_MESSAGES.removed, commentsCount: 2 });
    await remove(ana, `${photo.id}-2`).expect(200);
    await remove(admin, `${photo.id}-3`).expect(200);
    expect(texts(await pageOf(photo))).toEqual([]);
    expect(await keptCount(photo)).toBe(0);
    expect((await remove(bea, `${photo.id}-1`).expect(404)).body.message).toBe(COMMENT_MESSAGES.noComment);
    await request(app).post(`/api/v2/comment/delete/${photo.id}-1`).expect(401);
  });

  it('when one comment is removed twice at once, then one removal counts and the other answers 404', async () => {
    await say(bea, photo, 'Twice').expect(201);
    await say(cara, photo, 'Stays').expect(201);
    const answers = await Promise.all([remove(bea, `${photo.id}-1`), remove(ana, `${photo.id}-1`)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 404]);
    expect(await keptCount(photo)).toBe(1);
  });
});

describe('POST /comment/add-share', () => {
  it('when a member shares a piece, with or without a comment, and with one of its comments, then the shares join its comments', async () => {
    await say(bea, photo, 'Gorgeous').expect(201);
    const plain = await share(cara, photo, '').expect(201);
    expect(plain.body.comment).toMatchObject({ kind: 'share', description: '', sharedComment: null });
    const quoting = await share(cara, photo, 'Agreed', { sharedCommentId: `${photo.id}-1` }).expect(201);
    expect(quoting.body.comment.sharedComment).toEqual({
      id: `${photo.id}-1`,
      commentorName: 'Test Member',
      commentorUsername: bea.username,
      description: 'Gorgeous',
    });
    await share(ana, photo, 'My own, shared').expect(201); // an artist may share their own piece
    expect((await share(cara, photo, 'Elsewhere', { sharedCommentId: `${song.id}-1` }).expect(404)).body.message).toBe(COMMENT_MESSAGES.sharedNotFound);
    const page = await pageOf(photo);
    expect(page.comments.map((comment) => comment.kind)).toEqual(['share', 'share', 'share', 'comment']);
    expect(page.total).toBe(4);
  });
});

describe('the lists of a member, the feed and the admins', () => {
  it('when members comment, then a member’s list, the follower’s feed and the admins’ list show what each should', async () => {
    const dan = await createMember();
    const dansPiece = await createPiece(dan, { title: 'Dan’s' });
    await recordFollow(cara.id, ana.id, new Date());
    await say(bea, photo, 'On Ana’s photo').expect(201);
    await say(bea, dansPiece, 'On Dan’s piece').expect(201);
    await share(dan, song, 'Sharing Ana’s song').expect(201);

    const beas = await request(app).get(`/api/v2/comment/get-by-user/${bea.id}`).expect(200);
    expect(texts(beas.body)).toEqual(['On Dan’s piece', 'On Ana’s photo']);
    expect(beas.body.total).toBeNull();
    await request(app)
      .get(`/api/v2/comment/get-by-user/${String(new Types.ObjectId())}`)
      .expect(404);

    const feed = await request(app).get('/api/v2/comment/get-feed').set(bearer(cara)).expect(200);
    expect(texts(feed.body)).toEqual(['Sharing Ana’s song', 'On Ana’s photo']);
    expect((await request(app).get('/api/v2/comment/get-feed').set(bearer(dan)).expect(200)).body.comments).toEqual([]);
    await request(app).get('/api/v2/comment/get-feed').expect(401);

    const paged = await request(app).get(`/api/v2/comment/get-by-user/${bea.id}?limit=1`).expect(200);
    const next = await request(app).get(`/api/v2/comment/get-by-user/${bea.id}?limit=1&cursor=${paged.body.nextCursor}`).expect(200);
    expect([...texts(paged.body), ...texts(next.body)]).toEqual(['On Dan’s piece', 'On Ana’s photo']);
    expect(next.body.nextCursor).toBeNull();

    const admin = await adminMember();
    expect(texts((await request(app).get('/api/v2/comment/get-all').set(bearer(admin)).expect(200)).body)).toHaveLength(3);
    expect((await request(app).get('/api/v2/comment/get-all').set(bearer(bea)).expect(403)).body.message).toBe(COMMENT_MESSAGES.adminsOnly);
  });
});

describe('the kept comments count', () => {
  it('when a kept count was lost (another process’s increment), then the rankings job sets it from the comments', async () => {
    await say(bea, photo, 'One').expect(201);
    await say(cara, photo, 'Two').expect(201);
    await remove(bea, `${photo.id}-1`).expect(200);
    await ContentModel.updateOne({ _id: photo.id }, { $set: { commentsCount: 9 } });
    await refreshRankings();
    expect(await keptCount(photo)).toBe(1);
  });

  it('when a member comments, then the limit is counted per member and not per piece', async () => {
    await RateLimitModel.deleteMany({});
    const clock = freezeInWindow(COMMENT_LIMIT.windowMs, 1_000);
    try {
      for (let i = 0; i < COMMENT_LIMIT.max; i += 1) await say(bea, i % 2 ? photo : song, `Note ${i}`).expect(201);
      await say(bea, photo, 'Eleventh').expect(429);
      await say(cara, photo, 'Cara is fine').expect(201);
    } finally {
      clock.restore();
    }
  });
});
