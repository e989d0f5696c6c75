/**
 * Privacy per piece on the real database: choosing who sees a piece needs a plan above the first (admins always may),
 * the choice is exclusive, and another member's piece answers 404. A count the owner hides (a song's plays, a
 * picture's views) is null for visitors and other members wherever a piece goes out (feeds, search, the profile
 * list, the Top 50, the detail, the embed's data and play calls, the knack calls), and kept for the owner and admins.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { ContentModel, type ContentDoc } from '../../server/modules/contents';
import { addOutsideReactions } from '../../server/modules/knacks';
import { SubscriptionModel } from '../../server/modules/subscriptions';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member, type PublishedPiece } from '../helpers/e2e-pieces';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const NEEDS_PLAN = 'Changing who can see a piece needs a subscription plan above Standard.';
const EXCLUSIVE = 'At least one checkbox must be checked.';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Member;
let bea: Member;
let admin: Member;
let song: PublishedPiece;
let photo: PublishedPiece;

type Setting = { public: boolean; private: boolean; followers: boolean; hidePlayCount: boolean; hideViewCount: boolean };
const setting = (change: Partial<Setting> = {}): Setting => ({
  public: true,
  private: false,
  followers: false,
  hidePlayCount: false,
  hideViewCount: false,
  ...change,
});

const bearer = (member: Member) => ({ Authorization: `Bearer ${member.token}` });
const get = (member: Member | null, url: string) => (member ? request(app).get(url).set(bearer(member)) : request(app).get(url));
const updateSetting = (member: Member, piece: PublishedPiece, chosen: Setting) =>
  request(app).post('/api/v2/content/update-setting').set(bearer(member)).send({ contentId: piece.id, setting: chosen });

/** A subscription to `planId` written as a paid checkout leaves it (active, no end). */
async function subscribe(member: Member, planId: number): Promise<void> {
  await SubscriptionModel.create({ userId: member.user.id, planId, subscriptionId: `sub_privacy_${member.user.id}_${planId}` });
}
const unsubscribe = (member: Member) => SubscriptionModel.deleteMany({ userId: member.user.id });

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana', lastName: 'Lima' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea', lastName: 'Moon' });
  admin = await createActiveMember(app, smtp, { email: 'admin@knack.example' });
  song = await publishPiece(app, ana, { title: 'Quiet Harbor', tag: 'Music', subTag: 'Rock', hue: 200 });
  photo = await publishPiece(app, ana, { title: 'Quiet Dunes', tag: 'Photos', subTag: 'Travel', hue: 40 });
  for (const [piece, count] of [
    [song, 3],
    [photo, 5],
  ] as const) {
    await addOutsideReactions((await ContentModel.findById(piece.id).lean<ContentDoc>())!, count);
  }
  // One play of the song from the embeddable player, by a visitor.
  await request(app).post('/api/v2/content/react').set('User-Agent', 'Embed visitor').send({ contentId: song.id }).expect(200);
}, 120_000);

afterAll(async () => smtp.stop());

describe('choosing who can see a piece', () => {
  afterEach(async () => {
    await unsubscribe(ana);
    await unsubscribe(bea);
  });

  it('when a member without a plan, or on the first plan, changes it, then 403 with the reason, and nothing changes', async () => {
    const refused = await updateSetting(ana, photo, setting({ public: false, followers: true })).expect(403);
    expect(refused.body.message).toBe(NEEDS_PLAN);
    await subscribe(ana, 1);
    const onFirst = await updateSetting(ana, photo, setting({ public: false, followers: true })).expect(403);
    expect(onFirst.body.message).toBe(NEEDS_PLAN);
    expect((await ContentModel.findById(photo.id).lean<ContentDoc>())!.setting).toMatchObject(setting());
  });

  it('when she has a plan above the first, then she can show it to her followers only (and make it public again)', async () => {
    await subscribe(ana, 2);
    const res = await updateSetting(ana, photo, setting({ public: false, followers: true })).expect(200);
    expect(res.body.content.setting).toEqual(setting({ public: false, followers: true }));
    await get(bea, `/api/v2/content/get-by-id/${photo.id}`).expect(404);
    await updateSetting(ana, photo, setting()).expect(200);
    await get(bea, `/api/v2/content/get-by-id/${photo.id}`).expect(200);
  });

  it('when two choices or none are sent, then 400 "At least one checkbox must be checked."', async () => {
    await subscribe(ana, 2);
    for (const chosen of [setting({ private: true }), setting({ followers: true }), setting({ public: false })]) {
      const res = await updateSetting(ana, photo, chosen).expect(400);
      expect(res.body.message).toBe(EXCLUSIVE);
    }
  });

  it('when another member asks to change her piece, even with a plan, then 404 as for a piece that does not exist', async () => {
    await subscribe(bea, 2);
    const res = await updateSetting(bea, photo, setting({ public: false, private: true })).expect(404);
    expect(res.body.message).toBe('Content not found');
    expect((await ContentModel.findById(photo.id).lean<ContentDoc>())!.setting.public).toBe(true);
  });

  it('when an admin changes it, then no plan is needed', async () => {
    const res = await updateSetting(admin, photo, setting({ hideViewCount: true })).expect(200);
    expect(res.body.content.setting.hideViewCount).toBe(true);
    await updateSetting(admin, photo, setting()).expect(200);
  });
});

describe('counts the owner hides', () => {
  beforeAll(async () => {
    await subscribe(ana, 2);
    await updateSetting(ana, song, setting({ hidePlayCount: true })).expect(200);
    await updateSetting(ana, photo, setting({ hideViewCount: true })).expect(200);
  });

  afterAll(async () => unsubscribe(ana));

  /** Every answer that carries the two pieces, as `member` (null: a visitor) asks for them: [where, piece]. */
  async function piecesSeenBy(member: Member | null): Promise<[string, { id: string; reactedCount: number | null; playCount?: number | null }][]> {
    const seen: [string, { id: string; reactedCount: number | null; playCount?: number | null }][] = [];
    const fromList = async (where: string, url: string) => {
      const { contents } = (await get(member, url).expect(200)).body as { contents: { id: string; reactedCount: number | null }[] };
      const ours = contents.filter((piece) => piece.id === song.id || piece.id === photo.id);
      expect(ours.length).toBeGreaterThan(0);
      for (const piece of ours) seen.push([where, piece]);
    };
    await fromList('profile list', `/api/v2/content/get-by-username/${ana.form.username}`);
    await fromList('top 50', `/api/v2/content/top50/${ana.form.username}`);
    for (const piece of [song, photo]) {
      const viewer = member ? member.user.id : 'guest';
      seen.push(['detail', (await get(member, `/api/v2/content/detail/${piece.id}/for-user/${viewer}`).expect(200)).body.content]);
      seen.push(['embed data (get-by-id)', (await get(member, `/api/v2/content/get-by-id/${piece.id}`).expect(200)).body.content]);
      const slug = piece.link.slice(ana.form.username.length + 2);
      seen.push(['share link', (await get(member, `/api/v2/content/get-by-link/${ana.form.username}/${slug}`).expect(200)).body.content]);
      const money = (await get(member, `/api/v2/knack/get-money/${piece.id}`).expect(200)).body as { reactedCount: number | null };
      seen.push(['knack money', { id: piece.id, reactedCount: money.reactedCount }]);
    }
    return seen;
  }

  /** The public feeds and search: one shared page for everyone (signed in or not). */
  async function piecesInPublicFeeds(member: Member | null) {
    const seen: { id: string; reactedCount: number | null; playCount?: number | null }[] = [];
    for (const url of [
      '/api/v2/content/get-all',
      '/api/v2/content/get-featured?orderBy=new',
      '/api/v2/content/get-by-kind/popular',
      '/api/v2/content/search-contents?q=Quiet',
      '/api/v2/content/get-by-tag?tag=Music',
      '/api/v2/content/get-by-tag?tag=Photos',
    ]) {
      const { contents } = (await get(member, url).expect(200)).body as { contents: typeof seen };
      seen.push(...contents.filter((piece) => piece.id === song.id || piece.id === photo.id));
    }
    expect(seen.map((piece) => piece.id)).toEqual(expect.arrayContaining([song.id, photo.id]));
    return seen;
  }

  it('when a visitor or another member looks anywhere, then the hidden counts are null', async () => {
    for (const member of [null, bea]) {
      const seen = await piecesSeenBy(member);
      expect(seen.length).toBeGreaterThanOrEqual(10);
      for (const [where, piece] of seen) {
        expect([where, piece.reactedCount]).toEqual([where, null]);
        if (piece.playCount !== undefined) expect([where, piece.playCount]).toEqual([where, null]);
      }
      for (const piece of await piecesInPublicFeeds(member)) expect([piece.reactedCount, piece.playCount]).toEqual([null, null]);
    }
  });

  it('when the owner or an admin looks, then the counts are there (the shared public feeds keep them hidden for all)', async () => {
    for (const member of [ana, admin]) {
      for (const [where, piece] of await piecesSeenBy(member)) {
        expect([where, piece.reactedCount]).toEqual([where, piece.id === song.id ? 3 : 5]);
        if (piece.playCount !== undefined) expect([where, piece.playCount]).toEqual([where, piece.id === song.id ? 1 : 0]);
      }
      for (const piece of await piecesInPublicFeeds(member)) expect(piece.reactedCount).toBeNull();
    }
  });

  it('when the embedded player counts a play, then it answers the play count only to the owner and admins', async () => {
    const play = (member: Member | null, agent: string) => {
      const call = request(app).post('/api/v2/content/react').set('User-Agent', agent).send({ contentId: song.id });
      return member ? call.set(bearer(member)) : call;
    };
    expect((await play(null, 'Another visitor').expect(200)).body).toEqual({ playCount: null, counted: true });
    expect((await play(bea, 'Bea').expect(200)).body).toEqual({ playCount: null, counted: true });
    expect((await play(ana, 'Ana').expect(200)).body).toEqual({ playCount: 4, counted: true });
    expect((await play(admin, 'Admin').expect(200)).body).toEqual({ playCount: 5, counted: true });
  });

  it('when another member knacks the picture, then the knack answers without its count; the count still grows', async () => {
    const res = await request(app).post('/api/v2/knack/add').set(bearer(bea)).send({ contentId: photo.id, userId: bea.user.id }).expect(200);
    expect(res.body).toMatchObject({ message: 'Thank you for being apart of our Community.', reactedCount: null });
    expect((await get(ana, `/api/v2/content/get-by-id/${photo.id}`).expect(200)).body.content.reactedCount).toBe(6);
  });

  it('when the owner shows the counts again, then everyone sees them', async () => {
    await updateSetting(ana, song, setting()).expect(200);
    const { content } = (await get(bea, `/api/v2/content/get-by-id/${song.id}`).expect(200)).body as { content: { reactedCount: number; playCount: number } };
    expect([content.reactedCount, content.playCount]).toEqual([3, 5]);
  });
});
