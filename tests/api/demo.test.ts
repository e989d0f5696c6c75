import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { DEMO_PASSWORD, seedDemoContent } from '../../server/db/demo';
import { seedReferenceData } from '../../server/db/seed';
import { localStorage } from '../../server/integrations/storage';
import { createLogger } from '../../server/lib/logger';
import { ContentModel } from '../../server/modules/contents';
import { refreshRankings } from '../../server/modules/feeds';
import { FollowModel } from '../../server/modules/follows';
import { createTestApp, createTestServices, testConfig } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();

const root = mkdtempSync(path.join(os.tmpdir(), 'knack-demo-test-'));
const storage = localStorage(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('demo content', () => {
  it('when the catalogue is empty, then the demo publishes real pieces each Explore tab ranks by its rule; a second run adds nothing', async () => {
    await seedReferenceData();
    const deps = { services: createTestServices({ storage }), logger: createLogger('silent') };
    expect(await seedDemoContent(deps)).toBe(30);
    expect(await seedDemoContent(deps)).toBe(0);
    expect(await ContentModel.countDocuments({})).toBe(30);

    const app = createTestApp({ storage });
    const first = async (url: string) => (await request(app).get(`/api/v2${url}`).expect(200)).body.contents[0].title;
    expect(await first('/content/get-by-kind/popular')).toBe('Fox in the Snow');
    expect(await first('/content/get-by-kind/featured')).toBe('Tiny Castle'); // the latest re-post
    const radar = (await request(app).get('/api/v2/content/get-by-kind/radar?limit=2').expect(200)).body.contents.map((c: { title: string }) => c.title);
    expect(radar).toEqual(['Tiny Castle', 'Lisbon at Dusk']); // Fox in the Snow's artist has 130 followers
    expect(await first('/content/get-by-kind/new')).toBe('Moon Harbor');
    const songs = await request(app).get('/api/v2/content/get-by-tag?tag=Jazz&kind=popular').expect(200);
    expect(songs.body.contents[0]).toMatchObject({ title: 'Blue Jazz Night', isAudio: true, processing: 'ready' });
    expect(songs.body.contents[0].waveformPath).toMatch(/-peaks\.json$/);
    await request(app).get(new URL(songs.body.contents[0].thumbPath, 'http://x').pathname).expect(200).expect('Content-Type', 'image/webp');

    // The artists' followers are listener accounts that follow them: the rankings job, which counts followers from
    // the follows, finds what the demo showed, and the tabs keep their order.
    const byFans = async () =>
      (await request(app).get('/api/v2/user/get-users-by-fans?limit=10').expect(200)).body.users.map(
        (u: { user: { username: string }; followersCount: number }) => [u.user.username, u.followersCount],
      );
    const fans = [
      ['maya_lens', 130],
      ['nora_vale', 110],
      ['leo_beats', 60],
      ['kai.moreno', 35],
      ['pixel_ada', 12],
    ];
    expect(await byFans()).toEqual(fans);
    expect(await FollowModel.countDocuments({})).toBe(130 + 110 + 60 + 35 + 12);
    await refreshRankings();
    expect(await byFans()).toEqual(fans);
    const radarAfter = await request(app).get('/api/v2/content/get-by-kind/radar?limit=2').expect(200);
    expect(radarAfter.body.contents.map((c: { title: string }) => c.title)).toEqual(['Tiny Castle', 'Lisbon at Dusk']);
    // Maya's followers are listed, the latest first, each a listener with no pieces of their own.
    const maya = (await request(app).get('/api/v2/user/get-users-by-fans?limit=1').expect(200)).body.users[0].user;
    const followers = await request(app).get(`/api/v2/follow/get-followers/${maya.id}/myuserId/${maya.id}?limit=3`).expect(200);
    expect(followers.body.entries.map((entry: { user: { username: string } }) => entry.user.username)).toEqual([
      expect.stringMatching(/^listener_\d{3}$/),
      expect.stringMatching(/^listener_\d{3}$/),
      expect.stringMatching(/^listener_\d{3}$/),
    ]);
    expect(followers.body.nextCursor).not.toBeNull();
    // Each follow is keyed by its pair, as one made through the API is: following again cannot repeat it.
    const listener = followers.body.entries[0].user.id;
    expect(await FollowModel.exists({ _id: `${listener}:${maya.id}` })).toBeTruthy();

    const login = await request(app).post('/api/v2/auth/signin').send({ email: 'nora_vale@demo.knack.example', password: DEMO_PASSWORD }).expect(200);
    expect(login.body.user.fullName).toBe('Nora Vale');

    // The economy ran through the real calls: Nora, signed in, sees money in her wallet and history at once.
    const nora = { Authorization: `Bearer ${login.body.token}` };
    const noraId = login.body.user.id as string;
    const wallet = (await request(app).get(`/api/v2/wallet/summary/${noraId}`).set(nora).expect(200)).body;
    // 14 plays of her Music 2 song at $0.99, 24 of Blue Jazz Night at $0.05, and 90% of 12 of a supported song's.
    const earnedMicros = 14 * 990_000 + 24 * 50_000 + 12 * 45_000;
    expect(wallet.pendingCashOutMicros).toBe(earnedMicros - (earnedMicros % 10_000)); // asked in whole cents
    expect(wallet.uploadsMicros).toBe(earnedMicros);
    const history = (await request(app).get(`/api/v2/user-history/get-all/${noraId}`).set(nora).expect(200)).body.items;
    expect(history[0]).toMatchObject({ activityType: 'Earn', status: 'pending' });
    expect(history.filter((item: { activityType: string }) => item.activityType === 'Paid1').length).toBeGreaterThan(5);
    const blueJazz = (await ContentModel.findOne({ title: 'Blue Jazz Night' }, { _id: 1 }).lean())!;
    const comments = (
      await request(app)
        .get(`/api/v2/comment/get-by-content/${String(blueJazz._id)}`)
        .expect(200)
    ).body;
    expect(comments.comments ?? comments.entries ?? comments.items).toHaveLength(2);
    // On Plan 2, her earnings analytics open at once: this week's Music earnings are her songs' (the rollups were
    // counted by the demo), Music 2 and Jazz the tags that earned most.
    const analytics = (await request(app).get(`/api/v2/analytics/earnings/${noraId}?period=week&type=music`).set(nora).expect(200)).body;
    expect(analytics.earnedMicros).toBe(earnedMicros);
    expect(analytics.byTag.map((slice: { label: string }) => slice.label)).toEqual(['Music 2', 'Jazz']);
    // 30 pieces through the whole media pipeline (pictures re-encoded to four sizes, waveforms by ffmpeg): about
    // 9 s alone, longer when the other test files keep both cores busy.
  }, 90_000);
});
