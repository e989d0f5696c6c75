/**
 * Every call a page of the app makes, and every call an integrator polls (the scale benchmark's list,
 * scripts/bench-scale.calls.ts), reads the database only by `_id`, so its work does not grow with the data. On the
 * test database (FerretDB) any other read goes over the whole collection; the meter (tests/helpers/read-meter.ts)
 * lists each such command. Each call is asked twice, as the app asks it, on the demo: the first time finds the
 * caches cold, and what fills them counts as the call's own reads.
 *
 * A call may still read a collection whole when that collection does not grow with members, pieces or their
 * history (SMALL_COLLECTIONS, each with the reason), or when the call is one that no member's page makes
 * (`scans` on its entry in the calls list, with the reason). This test fails on a scan that neither explains, and on
 * a reason that no longer holds, so the list stays true.
 */
import request from 'supertest';
import { DEMO_PASSWORD, seedDemoContent } from '../../server/db/demo';
import { seedReferenceData } from '../../server/db/seed';
import { createLogger } from '../../server/lib/logger';
import { ContentModel, ensurePieceLinks } from '../../server/modules/contents';
import { knackKey, LedgerEntryModel } from '../../server/modules/ledger';
import { refreshRankings } from '../../server/modules/feeds';
import { ensureMemberKeys } from '../../server/modules/users';
import { SCALE_CALLS, type Caller, type Fixture, type ScaleCall } from '../../scripts/bench-scale.calls';
import { pickFixture, writeFixtureExtras, type Poster } from '../../scripts/bench-scale.fixture';
import { createTestApp, createTestServices } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { adminMember } from '../helpers/ledger-factory';
import { startReadMeter, type Scan } from '../helpers/read-meter';

useTestDatabase({ monitorCommands: true });

/**
 * Collections whose size does not grow with members, pieces or their history: reading one whole costs the same at
 * any size of the catalogue.
 */
const SMALL_COLLECTIONS: Record<string, string> = {
  tags: 'the main tags and their sub-tags, seeded reference data that members cannot add to',
  plans: 'the plans on sale, a handful set by the seed',
  page_uis: 'the footer and the other page parts, one document each, edited by admins',
  page_metas: 'one title and description per page of the app, edited by admins',
  native_posts: 'the blog, posts written by admins: tens a year',
};

const app = createTestApp();
let fixture: Fixture;
const auth: Record<Caller, string | undefined> = { member: undefined, artist: undefined, admin: undefined, key: undefined, anonymous: undefined };
const found = new Map<ScaleCall, Scan[]>();

beforeAll(async () => {
  await seedReferenceData();
  await seedDemoContent({ services: createTestServices(), logger: createLogger('silent') });
  // As the server's start does after the demo (server/index.ts): the demo writes its members and pieces directly.
  await ensureMemberKeys();
  await ensurePieceLinks();
  await refreshRankings();
  const picked = await pickFixture();
  const signIn = async (username: string) =>
    `Bearer ${
      (
        await request(app)
          .post('/api/v2/auth/signin')
          .send({ email: `${username}@demo.knack.example`, password: DEMO_PASSWORD })
          .expect(200)
      ).body.token
    }`;
  auth.member = await signIn(picked.member.username);
  auth.artist = await signIn(picked.artist.username);
  auth.admin = `Bearer ${(await adminMember()).token}`;
  const post: Poster = async <T>(authorization: string, route: string, body: unknown) =>
    (
      await request(app)
        .post(`/api/v2${route}`)
        .set('Authorization', authorization)
        .send(body as object)
        .expect(201)
    ).body as T;
  const extras = await writeFixtureExtras(post, picked, { member: auth.member, artist: auth.artist });
  fixture = extras.fixture;
  auth.key = `Bearer ${extras.keySecret}`;

  const meter = startReadMeter();
  try {
    for (const call of SCALE_CALLS) {
      for (let i = 0; i < 2; i++) {
        const req = request(app).get(`/api/v2${call.path(fixture)}`);
        if (auth[call.as]) void req.set('Authorization', auth[call.as]!);
        await req;
      }
      // Work a call leaves running after its answer (a kept hint written) is counted with the next call's: a scan
      // there still fails the test, under a neighbour's name.
      found.set(call, meter.take());
    }
  } finally {
    meter.stop();
  }
}, 300_000);

const label = (call: ScaleCall) => `${call.operationId} (${call.pages}, as ${call.as})`;
const describeScans = (scans: Scan[]) => [...new Set(scans.map((scan) => `${scan.command} ${scan.collection} ${scan.filter}`))];
const growing = (call: ScaleCall) => found.get(call)!.filter((scan) => !(scan.collection in SMALL_COLLECTIONS));

test('every call without a stated reason reads only by _id, or reads whole only collections that do not grow', () => {
  const unexplained = SCALE_CALLS.filter((call) => !call.scans && growing(call).length > 0).map((call) => ({
    call: label(call),
    scans: describeScans(growing(call)),
  }));
  expect(unexplained).toEqual([]);
});

test('every stated reason still holds: its call still scans', () => {
  const stale = SCALE_CALLS.filter((call) => call.scans && growing(call).length === 0).map(label);
  expect(stale).toEqual([]);
});

/** Calls whose subject the demo lacks, which still do their reads before they answer so. */
const EXPECTED_STATUS: Record<string, number> = {
  getSubscriptionStatus: 404, // a checkout that was never made
  getPaymentOrder: 404, // the artist's piece has no listing order of the member's
  getLedgerProof: 409, // today's entry: its day's root is built after the day ends
};

test('the calls answer as a page expects', async () => {
  // The meter only means something if each call did its work: an error answered early reads nothing.
  const failed: string[] = [];
  for (const call of SCALE_CALLS) {
    const req = request(app).get(`/api/v2${call.path(fixture)}`);
    if (auth[call.as]) void req.set('Authorization', auth[call.as]!);
    const res = await req;
    if (res.status !== (EXPECTED_STATUS[call.operationId] ?? 200)) failed.push(`${label(call)}: ${res.status}`);
  }
  expect(failed).toEqual([]);
});

/** The writes a member makes most, each as the app sends it: they too read only by `_id`. */
test('a member’s everyday writes read only by _id', async () => {
  const meter = startReadMeter();
  const as = (who: 'member' | 'artist') => ({ Authorization: auth[who]! });
  const scans: Record<string, string[]> = {};
  const measure = async (name: string, send: () => Promise<unknown>) => {
    meter.take();
    await send();
    scans[name] = describeScans(meter.take().filter((scan) => !(scan.collection in SMALL_COLLECTIONS)));
  };
  try {
    const { member, artist, piece } = fixture;
    await measure('sign in', () =>
      request(app)
        .post('/api/v2/auth/signin')
        .send({ email: `${member.username}@demo.knack.example`, password: DEMO_PASSWORD })
        .expect(200),
    );
    // A picture the member has not knacked yet (a song counts only after a play).
    const pictures = await ContentModel.find({ type: 'photos', listed: true }, { _id: 1, ownerId: 1 }).lean();
    const unknacked: { _id: unknown }[] = [];
    for (const picture of pictures)
      if (String(picture.ownerId) !== member.id && !(await LedgerEntryModel.exists({ _id: knackKey(String(picture._id), member.id) }))) unknacked.push(picture);
    await measure('knack', () =>
      request(app)
        .post('/api/v2/knack/add')
        .set(as('member'))
        .send({ contentId: String(unknacked[0]!._id), userId: member.id })
        .expect(200),
    );
    await measure('follow', () =>
      request(app).post('/api/v2/follow/make-following').set(as('member')).send({ subjectorId: artist.id, myuserId: member.id, set: true }).expect(200),
    );
    await measure('unfollow', () =>
      request(app).post('/api/v2/follow/make-following').set(as('member')).send({ subjectorId: artist.id, myuserId: member.id, set: false }).expect(200),
    );
    const pieceOwner = (await request(app).get(`/api/v2/content/get-by-id/${piece.id}`).expect(200)).body.content.ownerId as string;
    let commentId = '';
    await measure('comment', async () => {
      const res = await request(app)
        .post('/api/v2/comment/add')
        .set(as('member'))
        .send({ comment: 'Lovely', userId: member.id, ownerId: pieceOwner, contentId: piece.id })
        .expect(201);
      commentId = res.body.comment?.id ?? res.body.id;
    });
    await measure('comment removed', () => request(app).post(`/api/v2/comment/delete/${commentId}`).set(as('member')).expect(200));
    await measure('message', () =>
      request(app)
        .post('/api/v2/message/create')
        .set(as('member'))
        .send({ senderId: member.id, receiverId: artist.id, subject: 'Again', message: 'Hello again' })
        .expect(201),
    );
    await measure('reply', () =>
      request(app)
        .post('/api/v2/message/reply')
        .set(as('artist'))
        .send({ senderId: artist.id, messageId: fixture.threadId, receiverId: member.id, message: 'Thanks!' })
        .expect(201),
    );
  } finally {
    meter.stop();
  }
  expect(Object.entries(scans).filter(([, found]) => found.length)).toEqual([]);
});
