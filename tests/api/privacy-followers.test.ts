/**
 * The "followers" privacy setting on the real database: a piece its owner shows to followers is seen by them (its
 * detail, its link, its comments, its files through the signed URLs its detail gives, the owner's profile list)
 * and by nobody else, members and visitors alike (404 everywhere, and in no list); unfollowing, being taken off the
 * owner's followers and being blocked by the owner take it away at once.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { createTestApp } from '../helpers/app';
import { freezeDate } from '../helpers/clock';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member, type PublishedPiece } from '../helpers/e2e-pieces';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Member;
let bea: Member;
let cara: Member;
let forFans: PublishedPiece;
let open: PublishedPiece;

const bearer = (member: Member) => ({ Authorization: `Bearer ${member.token}` });
const as = (member: Member | null, url: string) => (member ? request(app).get(url).set(bearer(member)) : request(app).get(url));
const follow = (member: Member, set: boolean) =>
  request(app).post('/api/v2/follow/make-following').set(bearer(member)).send({ subjectorId: ana.user.id, myuserId: member.user.id, set }).expect(200);
const detailUrl = (member: Member | null) => `/api/v2/content/detail/${forFans.id}/for-user/${member ? member.user.id : 'guest'}`;
/** The piece's share link (`/{username}-{slug}`) as the SPA asks for it. */
const linkUrl = () => `/api/v2/content/get-by-link/${ana.form.username}/${forFans.link.slice(ana.form.username.length + 2)}`;
const profileIds = async (member: Member | null) =>
  ((await as(member, `/api/v2/content/get-by-username/${ana.form.username}`).expect(200)).body.contents as { id: string }[]).map((piece) => piece.id);

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana', lastName: 'Lima' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea', lastName: 'Moon' });
  cara = await createActiveMember(app, smtp, { firstName: 'Cara', lastName: 'Nunes' });
  const admin = await createActiveMember(app, smtp, { email: 'admin@knack.example' });
  forFans = await publishPiece(app, ana, { title: 'For Fans Only', tag: 'Photos', subTag: 'Travel', hue: 120 });
  open = await publishPiece(app, ana, { title: 'For Everyone', tag: 'Photos', subTag: 'Travel', hue: 60 });
  // Choosing who sees a piece needs a plan; an admin may set it for any piece.
  await request(app)
    .post('/api/v2/content/update-setting')
    .set(bearer(admin))
    .send({ contentId: forFans.id, setting: { public: false, private: false, followers: true, hidePlayCount: false, hideViewCount: false } })
    .expect(200);
  await follow(bea, true);
}, 120_000);

afterAll(async () => smtp.stop());

describe('a piece shown to followers', () => {
  it('when a follower opens it, then its detail, link and comments answer, and its files open through the signed URLs given', async () => {
    const res = await as(bea, detailUrl(bea)).expect(200);
    expect(res.body.content.title).toBe('For Fans Only');
    expect(res.body.content.filePath).toMatch(/\?exp=\d+&sig=/);
    await request(app).get(res.body.content.filePath).expect(200);
    expect((await as(bea, linkUrl()).expect(200)).body.content.id).toBe(forFans.id);
    await as(bea, `/api/v2/comment/get-by-content/${forFans.id}`).expect(200);
    expect(await profileIds(bea)).toEqual([open.id, forFans.id]);
    expect(await profileIds(ana)).toEqual([open.id, forFans.id]);
  });

  it('when a member who does not follow, or a visitor, asks for it anywhere, then 404, and it is in none of their lists', async () => {
    for (const viewer of [cara, null]) {
      await as(viewer, detailUrl(viewer)).expect(404);
      await as(viewer, `/api/v2/comment/get-by-content/${forFans.id}`).expect(404);
      await as(viewer, linkUrl()).expect(404);
      expect(await profileIds(viewer)).toEqual([open.id]);
    }
    await request(app)
      .post('/api/v2/comment/add')
      .set(bearer(cara))
      .send({ comment: 'Let me in', userId: cara.user.id, ownerId: ana.user.id, contentId: forFans.id })
      .expect(404);
    const detail = await as(bea, detailUrl(bea)).expect(200);
    // The file itself: its plain address is refused; only the signed one the follower was given opens it.
    const plain = (detail.body.content.filePath as string).split('?')[0]!;
    await request(app).get(plain).expect(404);
    for (const list of ['/api/v2/content/get-all', '/api/v2/content/get-featured', '/api/v2/content/search-contents?q=For']) {
      const ids = ((await request(app).get(list).expect(200)).body.contents as { id: string }[]).map((piece) => piece.id);
      expect(ids).not.toContain(forFans.id);
    }
  });

  it('when the follower unfollows, then the piece is gone for her too; following again brings it back', async () => {
    await follow(bea, false);
    await as(bea, detailUrl(bea)).expect(404);
    expect(await profileIds(bea)).toEqual([open.id]);
    await follow(bea, true);
    await as(bea, detailUrl(bea)).expect(200);
  });

  it('when Ana takes Bea off her followers, then the piece is gone for Bea at once, everywhere; following again brings it back', async () => {
    await as(bea, detailUrl(bea)).expect(200);
    await request(app).post(`/api/v2/follow/remove-follower/${bea.user.id}`).set(bearer(ana)).expect(200);
    await as(bea, detailUrl(bea)).expect(404);
    await as(bea, linkUrl()).expect(404);
    await as(bea, `/api/v2/comment/get-by-content/${forFans.id}`).expect(404);
    expect(await profileIds(bea)).toEqual([open.id]);
    await follow(bea, true);
    await as(bea, detailUrl(bea)).expect(200);
  });

  it('when Ana blocks Bea, then the piece is gone for Bea at once, and her follow is refused until Ana unblocks her', async () => {
    const block = (set: boolean) =>
      request(app).post('/api/v2/message/block').set(bearer(ana)).send({ userId: ana.user.id, blockedId: bea.user.id, block: set }).expect(200);
    await as(bea, detailUrl(bea)).expect(200);
    await block(true);
    await as(bea, detailUrl(bea)).expect(404);
    await as(bea, linkUrl()).expect(404);
    await as(bea, `/api/v2/comment/get-by-content/${forFans.id}`).expect(404);
    expect(await profileIds(bea)).toEqual([open.id]);
    const refused = await request(app)
      .post('/api/v2/follow/make-following')
      .set(bearer(bea))
      .send({ subjectorId: ana.user.id, myuserId: bea.user.id, set: true })
      .expect(403);
    expect(refused.body.message).toBe('This member does not accept you as a follower.');
    await as(bea, detailUrl(bea)).expect(404);
    await block(false);
    await follow(bea, true);
    await as(bea, detailUrl(bea)).expect(200);
  });
});

describe('the files of a piece shown to followers', () => {
  const fileOf = async (piece: PublishedPiece, viewer: Member) =>
    (await as(viewer, `/api/v2/content/detail/${piece.id}/for-user/${viewer.user.id}`).expect(200)).body.content.filePath as string;

  it('when a follower is given a signed link, then it opens the file for 5 to 10 minutes only; a public file is served and cached as before', async () => {
    const clock = freezeDate();
    try {
      await follow(bea, true);
      const link = await fileOf(forFans, bea);
      const ends = Number(new URL(link, 'http://knack.test').searchParams.get('exp')) * 1000;
      expect(ends - Date.now()).toBeGreaterThan(5 * 60_000);
      expect(ends - Date.now()).toBeLessThanOrEqual(10 * 60_000);
      const opened = await request(app).get(link).expect(200);
      // The browser keeps it no longer than the link lasts, and no shared cache keeps it.
      expect(opened.headers['cache-control']).toBe(`private, max-age=${Math.floor((ends - Date.now()) / 1000)}, no-transform`);
      await request(app).get(link).set('Range', 'bytes=0-9').expect(206);

      const publicFile = await fileOf(open, bea);
      expect(publicFile).not.toContain('?');
      // Bea unfollows; the link she holds still works until it ends, and not a moment later.
      await follow(bea, false);
      clock.advance(ends - Date.now() - 1000);
      await request(app).get(link).set('Range', 'bytes=10-19').expect(206);
      clock.advance(2000);
      await request(app).get(link).set('Range', 'bytes=10-19').expect(404);
      await request(app).get(link).expect(404);

      // A public file needs no link that ends: it opens as ever, cached by anyone for 5 minutes.
      const served = await request(app).get(publicFile).expect(200);
      expect(served.headers['cache-control']).toBe('public, max-age=300, must-revalidate, no-transform');
    } finally {
      clock.restore();
      await follow(bea, true);
    }
  });
});
