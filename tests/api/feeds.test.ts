import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { ContentModel, markPaidOut, migrateContents } from '../../server/modules/contents';
import { publicPages } from '../../server/lib/public-pages';
import { anyOf } from '../../server/lib/query';
import { refreshRankings } from '../../server/modules/feeds';
import { addOutsideReactions } from '../../server/modules/knacks';
import { LedgerEntryModel } from '../../server/modules/ledger';
import { SubscriptionModel } from '../../server/modules/subscriptions';
import { UserModel } from '../../server/modules/users';
import { FollowModel } from '../../server/modules/follows';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { copyDatabase, restoreDatabase, useTestDatabase, type DatabaseCopy } from '../helpers/db';
import { png, wav } from '../helpers/media';
import { spyOnScans } from '../helpers/read-meter';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const root = mkdtempSync(path.join(os.tmpdir(), 'knack-feeds-test-'));
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
type Member = Awaited<ReturnType<typeof createActiveMember>>;
let ana: Member;
let bea: Member;
let admin: Member;

interface Piece {
  thumbPath: string;
  id: string;
  title: string;
  link: string;
  type: string;
  subTag: string;
  ownerUsername: string;
  featured: boolean;
  setting: Record<string, boolean>;
}

const bearer = (m: Member) => ({ Authorization: `Bearer ${m.token}` });
const api = (url: string, m?: Member) => (m ? request(app).get(`/api/v2${url}`).set(bearer(m)) : request(app).get(`/api/v2${url}`));
const titles = (body: { contents: Piece[] }) => body.contents.map((c) => c.title);

/** Publishes through the real calls: upload the files, then save. */
async function publish(m: Member, title: string, tag = 'Photos', subTag = 'Travel'): Promise<Piece> {
  const photo = await request(app)
    .post('/api/v2/content/upload-photo')
    .set(bearer(m))
    .attach('file', await png(64, 48), 'p.png')
    .expect(201);
  const audio = tag === 'Music' ? await request(app).post('/api/v2/content/upload-audio').set(bearer(m)).attach('file', wav(0.2), 's.wav').expect(201) : null;
  const res = await request(app)
    .post('/api/v2/content/save')
    .set(bearer(m))
    .send({ title, description: `About ${title}`, tags: [{ name: tag }], subTag, photoPath: photo.body.path, ...(audio ? { audioPath: audio.body.path } : {}) })
    .expect(201);
  return res.body.content as Piece;
}

async function react(piece: Piece, times: number, at = new Date()) {
  await addOutsideReactions((await ContentModel.findById(piece.id).lean())!, times, at);
}

/** Reads every page of a feed, `limit` at a time. */
async function allPages(url: string, limit: number) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res: request.Response = await api(`${url}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200);
    expect(res.body.contents.length).toBeLessThanOrEqual(limit);
    seen.push(...titles(res.body));
    cursor = res.body.nextCursor;
    pages += 1;
  } while (cursor && pages < 50);
  return { seen, pages };
}

/** The database as the seed leaves it: the tags, plans and pages every Knack has, and the support account. */
let referenceData: DatabaseCopy;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test'), storage: localStorage(root) });
  await seedReferenceData();
  referenceData = await copyDatabase();
});
afterAll(async () => {
  await smtp.stop();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(async () => {
  // Each test starts from the seeded database: put back from its copy, since seeding anew writes the same
  // documents one by one (about 0.7 s of CPU a test).
  await restoreDatabase(referenceData);
  ana = await createActiveMember(app, smtp, { firstName: 'Ana', lastName: 'Lima' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea', lastName: 'Moon', username: `bea_moon_${Date.now() % 100000}` });
  admin = await createActiveMember(app, smtp, { email: 'admin@knack.example' });
});

describe('feeds and paging', () => {
  it('when pieces are published, then every feed pages through them newest first, without repeats, by cursor', async () => {
    for (const title of ['One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven']) await publish(ana, title);
    const { seen, pages } = await allPages('/content/get-all', 3);
    expect(seen).toEqual(['Seven', 'Six', 'Five', 'Four', 'Three', 'Two', 'One']);
    expect(pages).toBe(3);
    for (const kind of ['featured', 'popular', 'trending', 'radar', 'new']) {
      const { seen: all } = await allPages(`/content/get-by-kind/${kind}`, 2);
      expect(new Set(all).size).toBe(7);
      expect(all).toHaveLength(7);
    }
  });

  it('when a page size is over 50 or a cursor is forged, then 400 with a clear message', async () => {
    await api('/content/get-all?limit=51').expect(400);
    const res = await api('/content/get-all?cursor=bm90LWEtY3Vyc29y').expect(400);
    expect(res.body.message).toBe(
      'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.',
    );
    await api('/content/get-by-kind/loudest').expect(400);
  });

  it('when a cursor is given to another feed, or to the same feed with other filters, then 400 says it belongs to another list', async () => {
    for (const title of ['One', 'Two', 'Three']) await publish(ana, title);
    await publish(bea, 'Song', 'Music', 'Pop');
    const otherList =
      'This cursor belongs to another list: it pages only the list, with the same filters, that gave it. Start this list again without a cursor.';
    const popular: string = (await api('/content/get-by-kind/popular?limit=1').expect(200)).body.nextCursor;
    const onNew = await api(`/content/get-by-kind/new?limit=1&cursor=${popular}`).expect(400);
    expect(onNew.body).toMatchObject({ code: 'bad_request', message: otherList, errors: [{ path: 'cursor', message: otherList }] });
    expect((await api(`/content/get-by-kind/popular?limit=1&tag=Photos&cursor=${popular}`).expect(400)).body.message).toBe(otherList);
    expect((await api(`/user/get-users?cursor=${popular}`).expect(400)).body.message).toBe(otherList);
    // The same feed and filters by another call, with another page size, or the tag in other letters: the same list.
    const photos: string = (await api('/content/get-by-kind/new?limit=1&tag=Photos').expect(200)).body.nextCursor;
    expect(titles((await api(`/content/get-by-kind/new?limit=5&tag=photos&cursor=${photos}`).expect(200)).body)).toEqual(['Two', 'One']);
    expect(titles((await api(`/content/get-featured?orderBy=new&limit=5&tag=Photos&cursor=${photos}`).expect(200)).body)).toEqual(['Two', 'One']);
  });

  it('when a cursor is garbled with characters a URL reserves, then 400 says it is not one the server gave, not how to encode a URL', async () => {
    const broken =
      'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.';
    for (const garbled of ['abc/def+ghi=', 'a:b@c', '!!!']) {
      const res = await request(app).get(`/api/v2/content/get-by-kind/new?cursor=${garbled}`).expect(400);
      expect(res.body.message).toBe(broken);
    }
  });

  it('when a feed pages past a piece whose owner hides its count, then the cursor reveals neither the count nor the piece; a forged or tampered one is 400', async () => {
    const hidden = await publish(ana, 'Quiet count');
    await publish(ana, 'Open count');
    await react(hidden, 7);
    await SubscriptionModel.create({ userId: ana.user.id, planId: 2, subscriptionId: 'sub-hide-count' });
    await request(app)
      .post('/api/v2/content/update-setting')
      .set(bearer(ana))
      .send({ contentId: hidden.id, setting: { public: true, private: false, followers: false, hidePlayCount: false, hideViewCount: true } })
      .expect(200);
    const reload =
      'This cursor is not one this server gave (it was cut short or changed). Pass back nextCursor exactly as it came, or reload the list from its start.';
    // popular pages by 7 (reactions), trending by 7 (reactions of the week), radar by 8 (1 + reactions of the week)
    for (const kind of ['popular', 'trending', 'radar']) {
      const first = await api(`/content/get-by-kind/${kind}?limit=1`).expect(200);
      expect(first.body.contents).toMatchObject([{ id: hidden.id, reactedCount: null }]);
      const cursor: string = first.body.nextCursor;
      const opened = Buffer.from(cursor, 'base64url').toString('latin1');
      expect(opened).not.toContain(hidden.id);
      expect(opened).not.toMatch(/\[\s*[78]\s*,/);
      expect(() => JSON.parse(opened)).toThrow();
      expect(titles((await api(`/content/get-by-kind/${kind}?limit=1&cursor=${cursor}`).expect(200)).body)).toEqual(['Open count']);

      // One character changed in the middle of the cursor.
      const at = Math.floor(cursor.length / 2);
      const tampered = `${cursor.slice(0, at)}${cursor[at] === 'A' ? 'B' : 'A'}${cursor.slice(at + 1)}`;
      expect((await api(`/content/get-by-kind/${kind}?limit=1&cursor=${tampered}`).expect(400)).body.message).toBe(reload);
    }
    // A cursor made by hand in the readable form, to probe a count: refused.
    const forged = Buffer.from(JSON.stringify([7, hidden.id])).toString('base64url');
    expect((await api(`/content/get-by-kind/popular?limit=1&cursor=${forged}`).expect(400)).body.message).toBe(reload);
  });

  it('when a piece is published, then it carries its type, share link and ranking flags, and the owner counts it', async () => {
    const piece = await publish(ana, 'Lisbon at Dusk!');
    expect(piece).toMatchObject({ type: 'photos', featured: false, link: `/${ana.form.username}-lisbon-at-dusk` });
    const twin = await publish(ana, 'Lisbon at dusk');
    expect(twin.link).toBe(`/${ana.form.username}-lisbon-at-dusk-2`);
    const byLink = await api(`/content/get-by-link/${ana.form.username}/lisbon-at-dusk-2`).expect(200);
    expect(byLink.body.content.id).toBe(twin.id);
    const profile = await api(`/user/profile/${ana.form.username}`).expect(200);
    expect(profile.body).toMatchObject({
      contentsCount: 2,
      followersCount: 0,
      followingsCount: 0,
      user: { username: ana.form.username, fullName: 'Ana Lima' },
    });
    await api('/user/profile/nobody_here').expect(404);
  });
});

describe('rankings', () => {
  it('when pieces gain reactions, then Popular and Trending order by them; a week later Trending forgets them, Popular does not', async () => {
    const calm = await publish(ana, 'Calm');
    const loud = await publish(ana, 'Loud');
    const mid = await publish(bea, 'Mid');
    await react(loud, 3);
    await react(mid, 2);
    expect(titles((await api('/content/get-by-kind/popular').expect(200)).body)).toEqual(['Loud', 'Mid', 'Calm']);
    expect(titles((await api('/content/get-by-kind/trending').expect(200)).body)).toEqual(['Loud', 'Mid', 'Calm']);

    // Old reactions: move every knack 8 days back, then refresh.
    await LedgerEntryModel.updateMany({ kind: 'knack' }, { $set: { at: new Date(Date.now() - 8 * 86_400_000) } });
    await react(calm, 1);
    expect(await refreshRankings()).toMatchObject({ contents: 2 });
    expect(titles((await api('/content/get-by-kind/trending').expect(200)).body)).toEqual(['Calm', 'Mid', 'Loud']);
    expect(titles((await api('/content/get-by-kind/popular').expect(200)).body)).toEqual(['Loud', 'Mid', 'Calm']);
    const trendingArtists = await api('/user/get-trending-users').expect(200);
    expect(trendingArtists.body.users[0].user.username).toBe(ana.form.username);
  });

  it('when an artist has 100 followers or a piece is over 30 days old, then it is not On the Radar', async () => {
    // 100 followers: the follow documents, as the follow calls write them, and the kept total they set.
    const followed = new Types.ObjectId(bea.user.id);
    await FollowModel.insertMany(
      Array.from({ length: 100 }, () => {
        const follower = new Types.ObjectId();
        return { _id: `${String(follower)}:${bea.user.id}`, followerId: follower, followedId: followed, at: new Date() };
      }),
    );
    await UserModel.updateOne({ _id: bea.user.id }, { $set: { followersCount: 100 } });
    await publish(ana, 'Fresh');
    await publish(bea, 'Famous');
    const old = await publish(ana, 'Old');
    await react(old, 4);
    expect(titles((await api('/content/get-by-kind/radar').expect(200)).body)).toEqual(['Old', 'Fresh']);
    await ContentModel.collection.updateOne(
      { _id: (await ContentModel.findById(old.id))!._id },
      { $set: { uploadedAt: new Date(Date.now() - 31 * 86_400_000) } },
    );
    await refreshRankings();
    expect(titles((await api('/content/get-by-kind/radar').expect(200)).body)).toEqual(['Fresh']);
  });

  it('when an admin re-posts a piece, then it tops Featured with its exact message; taking it off restores newest first', async () => {
    const first = await publish(ana, 'First');
    await publish(ana, 'Second');
    const song = await publish(bea, 'Song', 'Music', 'Jazz');
    const denied = await request(app).post('/api/v2/content/trend').set(bearer(ana)).send({ contentId: first.id }).expect(403);
    expect(denied.body.message).toBe('Only admins can re-post pieces.');
    const done = await request(app).post('/api/v2/content/trend').set(bearer(admin)).send({ contentId: first.id }).expect(200);
    expect(done.body.message).toBe('This content is re-posted successfully.');
    const music = await request(app).post('/api/v2/content/trend').set(bearer(admin)).send({ contentId: song.id }).expect(200);
    expect(music.body.message).toBe('This music is re-posted successfully.');
    const featured = await api('/content/get-featured').expect(200);
    expect(titles(featured.body)).toEqual(['Song', 'First', 'Second']);
    expect(featured.body.contents[0].featured).toBe(true);
    expect(titles((await api('/content/get-featured?orderBy=new').expect(200)).body)).toEqual(['Song', 'Second', 'First']);
    const removed = await request(app).post('/api/v2/content/remove').set(bearer(admin)).send({ contentId: song.id, artistId: bea.user.id }).expect(200);
    expect(removed.body.message).toBe('This Music is removed from the pages successfully.');
    expect(titles((await api('/content/get-featured').expect(200)).body)).toEqual(['First', 'Song', 'Second']);
  });
});

describe('filters', () => {
  it('when a feed is filtered by main tag, sub-tag, several sub-tags or artist, then only those pieces come back', async () => {
    await publish(ana, 'Road', 'Photos', 'Travel');
    await publish(ana, 'Cat', 'Photos', 'Animals and Pets');
    await publish(bea, 'Blue', 'Music', 'Jazz');
    await publish(bea, 'Pixels', 'Art', 'Pixel Art');
    expect(titles((await api('/content/get-by-kind/new?tag=photos').expect(200)).body)).toEqual(['Cat', 'Road']);
    expect(titles((await api('/content/get-by-kind/new?tag=Photos&subTag=travel').expect(200)).body)).toEqual(['Road']);
    expect(titles((await api('/content/get-by-tag?tag=Jazz').expect(200)).body)).toEqual(['Blue']);
    expect(titles((await api('/content/get-by-tag?tag=Art&kind=new').expect(200)).body)).toEqual(['Pixels']);
    const several = await request(app)
      .post('/api/v2/content/get-by-subtags')
      .send({ subTags: ['Travel', 'Jazz'], kind: 'new' })
      .expect(200);
    expect(titles(several.body)).toEqual(['Blue', 'Road']);
    expect(titles((await api(`/content/get-by-kind/new?ownerId=${bea.user.id}`).expect(200)).body)).toEqual(['Pixels', 'Blue']);
    const unknown = await api('/content/get-by-tag?tag=Polka').expect(404);
    expect(unknown.body.message).toBe('There is no tag named Polka.');
  });
});

describe('several sub-tags at once', () => {
  const bySubTags = (body: object) => request(app).post('/api/v2/content/get-by-subtags').send(body);

  it('when a feed of several sub-tags is paged, then their ranked lists are merged by key, with no repeat, no pass over the pieces, and the pieces published since the build', async () => {
    publicPages.clear();
    await ContentModel.deleteMany({});
    const built = [];
    for (const [title, subTag] of [
      ['Quay', 'Travel'],
      ['Fern', 'Nature'],
      ['Pier', 'Travel'],
      ['Moss', 'Nature'],
      ['Kitten', 'Animals and Pets'],
      ['Dune', 'Travel'],
    ])
      built.push(await publish(ana, title!, 'Photos', subTag));
    await react(built[1]!, 5);
    await react(built[2]!, 3);
    await react(built[5]!, 1);
    await refreshRankings();
    // Published after the build: merged in from the changes, as in a feed of one sub-tag.
    await publish(bea, 'Lake', 'Photos', 'Nature');
    await publish(bea, 'Harbour', 'Photos', 'Travel');

    const reads = spyOnScans('contents');
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    try {
      do {
        const res: request.Response = await bySubTags({ subTags: ['Travel', 'Nature'], kind: 'new', limit: 2, ...(cursor ? { cursor } : {}) }).expect(200);
        seen.push(...titles(res.body));
        cursor = res.body.nextCursor;
        pages += 1;
      } while (cursor && pages < 10);
      expect(reads.scans()).toEqual([]);
    } finally {
      reads.restore();
    }
    expect(seen).toEqual(['Harbour', 'Lake', 'Dune', 'Moss', 'Pier', 'Fern', 'Quay']);
    expect(pages).toBe(4);
    // By reactions: the built keys first, then the new pieces with none; the same sub-tag twice counts once.
    const popular = titles((await bySubTags({ subTags: ['Nature', 'Travel', 'travel'], kind: 'popular', limit: 4 }).expect(200)).body);
    expect(popular).toEqual(['Fern', 'Pier', 'Dune', expect.stringMatching(/^(Quay|Moss|Lake|Harbour)$/)]);
  });

  it('when a merged feed’s cursor is altered, or given to a feed of other sub-tags, then 400', async () => {
    await publish(ana, 'Road', 'Photos', 'Travel');
    await publish(ana, 'Fern', 'Photos', 'Nature');
    const first = await bySubTags({ subTags: ['Travel', 'Nature'], kind: 'new', limit: 1 }).expect(200);
    const cursor = first.body.nextCursor as string;
    expect(cursor.length).toBeGreaterThan(0);
    const other = await bySubTags({ subTags: ['Travel', 'Animals and Pets'], kind: 'new', limit: 1, cursor }).expect(400);
    expect(other.body.message).toBe(
      'This cursor belongs to another list: it pages only the list, with the same filters, that gave it. Start this list again without a cursor.',
    );
    const altered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await bySubTags({ subTags: ['Travel', 'Nature'], kind: 'new', limit: 1, cursor: altered }).expect(400)).body.message).toMatch(
      /^This cursor is not one this server gave/,
    );
  });
});

describe('privacy', () => {
  it('when a piece is private, then no list, search, link or detail shows it to others; its owner still sees it', async () => {
    const open = await publish(ana, 'Open sky');
    const secret = await publish(ana, 'Secret sky');
    await SubscriptionModel.create({ userId: ana.user.id, planId: 2, subscriptionId: 'sub-feeds' });
    await request(app)
      .post('/api/v2/content/update-setting')
      .set(bearer(ana))
      .send({ contentId: secret.id, setting: { public: false, private: true, followers: false, hidePlayCount: false, hideViewCount: false } })
      .expect(200);
    for (const url of [
      '/content/get-all',
      '/content/get-by-kind/popular',
      '/content/get-featured',
      '/content/search-contents?q=sky',
      `/content/get-by-username/${ana.form.username}`,
    ]) {
      expect(titles((await api(url, bea).expect(200)).body)).toEqual(['Open sky']);
    }
    expect((await api('/content/get-all-titles?q=sky').expect(200)).body.titles.map((t: Piece) => t.title)).toEqual(['Open sky']);
    await api(`/content/get-by-link/${ana.form.username}/secret-sky`, bea).expect(404);
    await api(`/content/detail/${secret.id}/for-user/${bea.user.id}`, bea).expect(404);
    expect(titles((await api(`/content/get-by-username/${ana.form.username}`, ana).expect(200)).body)).toEqual(['Secret sky', 'Open sky']);
    expect((await api(`/user/profile/${ana.form.username}`).expect(200)).body.contentsCount).toBe(1);
    expect((await api(`/content/count/${ana.user.id}`).expect(200)).body.contentsCount).toBe(1);
    expect(open.setting.public).toBe(true);
  });

  it('when a piece is removed, then it leaves the feeds at once and the owner count drops', async () => {
    const piece = await publish(ana, 'Gone soon');
    expect(titles((await api('/content/get-all').expect(200)).body)).toEqual(['Gone soon']);
    await request(app).post('/api/v2/content/delete').set(bearer(ana)).send({ contentId: piece.id }).expect(200);
    expect(titles((await api('/content/get-all').expect(200)).body)).toEqual([]);
    expect((await api(`/user/profile/${ana.form.username}`).expect(200)).body.contentsCount).toBe(0);
    expect((await api('/user/get-users').expect(200)).body.users).toEqual([]);
  });
});

describe('search', () => {
  it('when words are typed, then titles starting with each word match, any case, and regex characters are plain text', async () => {
    await publish(ana, 'Blue Jazz Night', 'Music', 'Jazz');
    await publish(ana, 'Jazzy blues');
    await publish(bea, 'Night train');
    expect(titles((await api('/content/search-contents?q=NIGHT&orderBy=new').expect(200)).body)).toEqual(['Night train', 'Blue Jazz Night']);
    expect(titles((await api('/content/search-contents?q=blu%20ja&orderBy=new').expect(200)).body)).toEqual(['Jazzy blues', 'Blue Jazz Night']);
    expect(titles((await api('/content/search-contents?q=ight').expect(200)).body)).toEqual([]);
    const dotStar = await api('/content/search-contents?q=.*');
    expect([dotStar.status, dotStar.body.message]).toEqual([200, undefined]);
    expect(titles(dotStar.body)).toEqual([]);
    expect(titles((await api('/content/search-contents?q=jazz&tag=Music').expect(200)).body)).toEqual(['Blue Jazz Night']);
  });

  it('when suggestions are asked, then at most 7 titles come with their knack price and link', async () => {
    for (let i = 1; i <= 9; i += 1) await publish(ana, `Sunset ${i}`);
    const res = await api('/content/get-all-titles?q=suns').expect(200);
    expect(res.body.titles).toHaveLength(7);
    expect(res.body.titles[0]).toMatchObject({ knackPrice: 0.05, type: 'photos', ownerUsername: ana.form.username });
    expect(res.body.titles[0].link).toMatch(new RegExp(`^/${ana.form.username}-sunset-\\d$`));
    await api('/content/get-all-titles?q=suns&limit=8').expect(400);
  });

  it('when artists are searched, then name and username words match; members without pieces do not', async () => {
    await publish(bea, 'Anything');
    const res = await api('/content/get-all-owners?q=moon').expect(200);
    expect(res.body.users.map((u: { user: { username: string } }) => u.user.username)).toEqual([bea.form.username]);
    expect(res.body.users[0]).toMatchObject({ contentsCount: 1, followersCount: 0 });
    expect((await api('/content/get-all-owners?q=lima').expect(200)).body.users).toEqual([]);
  });

  it('when many artists match, then pages go newest first past members without pieces, reading about a page of members each', async () => {
    // Seven members share the word "zephyrine", newest last; the 2nd and 5th have no pieces.
    const made = [];
    for (let i = 1; i <= 7; i += 1) {
      made.push(
        await UserModel.create({
          email: `zephyrine${i}@knack.example`,
          username: `zephyrine_${i}`,
          fullName: `Zephyrine Number${i}`,
          isActive: true,
          contentsCount: i === 2 || i === 5 ? 0 : 1,
        }),
      );
    }
    const expected = ['zephyrine_7', 'zephyrine_6', 'zephyrine_4', 'zephyrine_3', 'zephyrine_1'];
    const memberReads = jest.spyOn(UserModel.collection, 'findOne');
    const pages: string[][] = [];
    const readsPerPage: number[] = [];
    let cursor: string | null = null;
    do {
      memberReads.mockClear();
      const query: string = `/content/get-all-owners?q=zephyrine&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await api(query).expect(200);
      readsPerPage.push(memberReads.mock.calls.length);
      pages.push(res.body.users.map((u: { user: { username: string } }) => u.user.username));
      cursor = res.body.nextCursor;
    } while (cursor && pages.length < 5);
    memberReads.mockRestore();
    expect(pages).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
    // A page of 2 reads the candidates in batches of 3 (the page and one more, to know whether a next page exists)
    // until 3 are accepted, starting after the cursor: 7-6-5 then 4-3-2; 5-4-3 then 2-1; 2-1. Never all seven.
    expect(readsPerPage).toEqual([6, 5, 2]);
    await UserModel.deleteMany({ _id: anyOf(made.map((member) => member._id)) });
  });
});

describe('detail, artists, charts and collections', () => {
  it('when the detail is asked, then the knack status follows paid-out, owner and viewer; another member id is refused', async () => {
    const piece = await publish(ana, 'Detail me');
    const guest = await api(`/content/detail/${piece.id}/for-user/guest`).expect(200);
    expect(guest.body).toMatchObject({ knackStatus: 0, commentsCount: 0, owner: { username: ana.form.username }, content: { id: piece.id } });
    await api(`/content/detail/${piece.id}/for-user/${bea.user.id}`).expect(401);
    await api(`/content/detail/${piece.id}/for-user/${ana.user.id}`, bea).expect(403);
    await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: ana.user.id } });
    expect((await api(`/content/detail/${piece.id}/for-user/${ana.user.id}`, ana).expect(200)).body.knackStatus).toBe(3);
    expect((await api(`/content/detail/${piece.id}/for-user/${bea.user.id}`, bea).expect(200)).body.knackStatus).toBe(1);
  });

  it('when artists are listed, then only members with public pieces appear, by newest, fans or trend', async () => {
    await publish(ana, 'A');
    await publish(bea, 'B');
    await UserModel.updateOne({ _id: ana.user.id }, { $set: { followersCount: 12 } });
    const names = (body: { users: { user: { username: string } }[] }) => body.users.map((u) => u.user.username);
    expect(names((await api('/user/get-users').expect(200)).body)).toEqual([bea.form.username, ana.form.username]);
    expect(names((await api('/user/get-users-by-fans?limit=1').expect(200)).body)).toEqual([ana.form.username]);
    const second = await api(`/user/get-users-by-fans?limit=1&cursor=${(await api('/user/get-users-by-fans?limit=1')).body.nextCursor}`).expect(200);
    expect(names(second.body)).toEqual([bea.form.username]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('when the Top 50 chart is asked, then the artist’s songs come by reactions, songs only', async () => {
    const slow = await publish(bea, 'Slow song', 'Music', 'Jazz');
    const hit = await publish(bea, 'Hit song', 'Music', 'Pop');
    await publish(bea, 'A photo');
    await react(hit, 2);
    const res = await api(`/content/top50/${bea.form.username}`).expect(200);
    expect(res.body.artist.user.username).toBe(bea.form.username);
    expect(titles(res.body)).toEqual(['Hit song', 'Slow song']);
    expect(res.body.contents[1].id).toBe(slow.id);
  });

  it('when a member paid for others’ pieces, then their collection lists them, for them only', async () => {
    const supported = await publish(ana, 'Supported');
    await publish(ana, 'Not supported');
    const own = await publish(bea, 'Own');
    // Paid through the contents module's writer, which also puts the piece in the payer's collection.
    await markPaidOut(new Types.ObjectId(supported.id), bea.user.id);
    await markPaidOut(new Types.ObjectId(own.id), bea.user.id);
    expect(titles((await api(`/content/get-supported/${bea.user.id}`, bea).expect(200)).body)).toEqual(['Supported']);
    expect((await api(`/content/get-supported/${bea.user.id}`, ana).expect(404)).body.message).toBe('This member does not exist.');
    await api(`/content/get-supported/${bea.user.id}`).expect(401);
  });
});

describe('link previews', () => {
  it('when a shared piece or profile URL is opened, then its HTML carries Open Graph and Twitter tags; private pieces get none', async () => {
    const song = await publish(ana, 'Blue <Jazz> & Night', 'Music', 'Jazz');
    const page = await request(app).get(song.link).expect(200).expect('Content-Type', /html/);
    expect(page.text).toContain(`<title>Blue &#60;Jazz&#62; &#38; Night by Ana Lima | Knack</title>`);
    expect(page.text).toContain('<meta property="og:type" content="music.song">');
    expect(page.text).toContain(`<meta property="og:url" content="http://knack.test${song.link}">`);
    expect(page.text).toMatch(/<meta property="og:image" content="http:\/\/knack\.test\/files\/images\/[^"]+-hthumb\.webp">/);
    expect(page.text).toMatch(/<meta property="og:audio" content="http:\/\/knack\.test\/files\/audio\/[^"]+\.wav">/);
    expect(page.text).toContain('<meta name="twitter:card" content="summary_large_image">');

    const profile = await request(app).get(`/${ana.form.username}`).expect(200);
    expect(profile.text).toContain(`<meta property="og:title" content="Ana Lima (@${ana.form.username}) | Knack">`);
    expect(profile.text).toContain('<meta property="og:type" content="profile">');

    await SubscriptionModel.create({ userId: ana.user.id, planId: 2, subscriptionId: 'sub-preview' });
    await request(app)
      .post('/api/v2/content/update-setting')
      .set(bearer(ana))
      .send({ contentId: song.id, setting: { public: false, private: true, followers: false, hidePlayCount: false, hideViewCount: false } })
      .expect(200);
    const hidden = await request(app).get(song.link).expect(200);
    expect(hidden.text).not.toContain('og:title');
    expect(hidden.text).not.toContain('Blue');
    const plain = await request(app).get('/explore').expect(200);
    expect(plain.text).not.toContain('og:title');
  });

  it('when an admin takes a public piece down, then its shared URL carries neither its title nor its description, as the API shows neither', async () => {
    const piece = await publish(ana, 'Banned Harbour');
    expect((await request(app).get(piece.link).expect(200)).text).toContain('<meta property="og:description" content="About Banned Harbour">');
    await request(app)
      .post('/api/v2/flag/set')
      .set(bearer(bea))
      .send({ contentId: piece.id, userId: bea.user.id, reason: 'Inappropriate Content: Terms Of Services' })
      .expect(200);
    await request(app).post('/api/v2/flag/resolve').set(bearer(admin)).send({ contentId: piece.id, decision: 'hide' }).expect(200);
    await api(`/content/get-by-link/${ana.form.username}/banned-harbour`).expect(404);

    const page = await request(app).get(piece.link).expect(200);
    expect(page.text).not.toContain('og:title');
    expect(page.text).not.toContain('Banned Harbour');
  });
});

describe('pieces saved before the feeds', () => {
  it('when a piece lacks the feed fields, then the start-up migration fills them and it shows in the feeds again', async () => {
    const piece = await publish(ana, 'Old timer');
    const _id = (await ContentModel.findById(piece.id))!._id;
    const unset = {
      ownerUsername: '',
      ownerName: '',
      slug: '',
      titleWords: '',
      media: '',
      listed: '',
      featureRank: '',
      radarScore: '',
      trendScore: '',
      featuredAt: '',
    };
    await ContentModel.collection.updateOne({ _id }, { $unset: unset });
    await UserModel.updateOne({ _id: ana.user.id }, { $set: { contentsCount: 0 } });
    expect(titles((await api('/content/get-all').expect(200)).body)).toEqual([]);
    expect(await migrateContents()).toBe(1);
    expect(await migrateContents()).toBe(0);
    publicPages.clear();
    const [again] = (await api('/content/get-all').expect(200)).body.contents;
    expect(again).toMatchObject({ id: piece.id, title: 'Old timer', thumbPath: piece.thumbPath, ownerUsername: ana.form.username });
    expect(again.link).toMatch(new RegExp(`^/${ana.form.username}-old-timer-[0-9a-f]{6}$`));
    expect((await api(`/user/profile/${ana.form.username}`).expect(200)).body.contentsCount).toBe(1);
  });
});
