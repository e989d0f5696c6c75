/**
 * Product events on the real database: a batch is stored as one fact per event, with the member known only from the
 * bearer token or the events token a beacon carries; bad names, extra or personal fields and oversized batches are
 * refused whole; Do Not Track stores (and counts) nothing; the limits per member and per address answer 429 with
 * Retry-After; the job counts each day's events into the rollup read by the admin dashboard, the same however often it
 * runs; and with PostHog configured, the events reach its capture API after the answer, a slow or failing PostHog never
 * touching the member's request.
 */
import { Writable } from 'node:stream';
import { Types } from 'mongoose';
import pino from 'pino';
import request from 'supertest';
import { countHit, RateLimitModel } from '../../server/lib/rate-limit';
import { countProductEvents, EVENTS_LIMITS, productEventListsState, purgeOldProductEvents } from '../../server/modules/events';
import { noteEventsOf, ProductEventCountModel, ProductEventListModel, ProductEventModel } from '../../server/modules/events/testing';
import { createTestApp } from '../helpers/app';
import { freezeDate, freezeInWindow } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, type TestMember } from '../helpers/ledger-factory';
import { startPostHogStandIn } from '../helpers/posthog-standin';
import { spyOnScans } from '../helpers/read-meter';
import { waitUntil } from '../helpers/wait';

useTestDatabase();

const DAY = 86_400_000;
const EVENT_NAMES = ['login', 'signup', 'forgot_password', 'reset_password', 'post_content', 'play', 'knack', 'follow', 'comment'];

let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;
let contentId: string;

beforeAll(async () => {
  app = createTestApp();
  [ana, bea] = await Promise.all([createMember(), createMember()]);
  contentId = new Types.ObjectId().toHexString();
});

beforeEach(async () => {
  await Promise.all([
    ProductEventModel.deleteMany({}),
    ProductEventListModel.deleteMany({}),
    ProductEventCountModel.deleteMany({}),
    RateLimitModel.deleteMany({}),
  ]);
});

const now = () => new Date().toISOString();
const send = (body: unknown, headers: Record<string, string> = {}) =>
  request(app)
    .post('/api/v2/events')
    .set(headers)
    .send(body as object);
const stored = () => ProductEventModel.find({}).sort({ at: 1, name: 1 }).lean();

describe('a member’s events in their data', () => {
  it('when a member downloads their data, then it has the events they sent signed in, the oldest first, and none of another’s', async () => {
    const first = new Date(Date.now() - 60_000).toISOString();
    await send({ events: [{ name: 'login', at: first }] }, bearer(ana)).expect(202);
    await send({ events: [{ name: 'play', at: now(), props: { contentId } }] }, bearer(ana)).expect(202);
    await send({ events: [{ name: 'follow', at: now() }] }, bearer(bea)).expect(202);
    await send({ events: [{ name: 'signup', at: now() }] }).expect(202);

    const { body } = await request(app).get(`/api/v2/user-setting/download-data/${ana.id}`).set(bearer(ana)).expect(200);
    expect(body.productEvents).toEqual([
      { name: 'login', at: first },
      { name: 'play', at: expect.any(String), props: { contentId } },
    ]);
  });
});

describe('a member’s events, read through their lists', () => {
  const download = async (member: TestMember) =>
    (await request(app).get(`/api/v2/user-setting/download-data/${member.id}`).set(bearer(member)).expect(200)).body.productEvents as { name: string }[];

  it('when Ana sends ten batches at once, then her download has all twenty events, read by _id, and every event is on its member’s list', async () => {
    const batch = (i: number) => ({
      events: [
        { name: 'play', at: now(), props: { contentId } },
        { name: 'knack', at: now(), props: { contentId: `${i}`.padStart(24, '0') } },
      ],
    });
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => send(batch(i), bearer(ana)).expect(202)),
      ...Array.from({ length: 3 }, (_, i) => send(batch(i), bearer(bea)).expect(202)),
    ]);

    const reads = spyOnScans('product_events', 'product_event_lists');
    let anas: { name: string }[];
    try {
      anas = await download(ana);
      // No pass over the events or the lists: a download costs the member's own events, however many others sent.
      expect(reads.scans()).toEqual([]);
      expect(reads.reads()).toBeGreaterThan(20);
    } finally {
      reads.restore();
    }
    expect(anas.filter((event) => event.name === 'play')).toHaveLength(10);
    expect(anas.filter((event) => event.name === 'knack')).toHaveLength(10);
    expect(await download(bea)).toHaveLength(6);
    expect(await productEventListsState.check()).toEqual({ checked: 26, differences: [] });
  });

  it('when a process stopped between noting a batch and storing it, then the download leaves out what was never stored, and the check finds nothing missing', async () => {
    await send({ events: [{ name: 'login', at: now() }] }, bearer(ana)).expect(202);
    // What a process that died after the note and before the insert leaves: ids on Ana's list, no events.
    await noteEventsOf(ana.id, [new Types.ObjectId(), new Types.ObjectId()], new Date());
    expect((await download(ana)).map((event) => event.name)).toEqual(['login']);
    expect(await productEventListsState.check()).toEqual({ checked: 1, differences: [] });
  });

  it('when the lists are lost, then the check names each event missing, and the rebuild writes lists that give the same download', async () => {
    await send(
      {
        events: [
          { name: 'login', at: now() },
          { name: 'follow', at: now() },
        ],
      },
      bearer(ana),
    ).expect(202);
    await send({ events: [{ name: 'comment', at: now() }] }, bearer(bea)).expect(202);
    await send({ events: [{ name: 'signup', at: now() }] }).expect(202);
    const before = await download(ana);

    await ProductEventListModel.deleteMany({});
    const lost = await productEventListsState.check();
    expect(lost.checked).toBe(3);
    expect(lost.differences).toHaveLength(3);
    expect(lost.differences[0]).toMatch(new RegExp(`^product-event-lists: [0-9a-f]{24} is not on the list of ${ana.id}:\\d{4}-\\d{2}$`));

    await productEventListsState.rebuild();
    expect(await productEventListsState.check()).toEqual({ checked: 3, differences: [] });
    expect(await download(ana)).toEqual(before);
    expect(await download(bea)).toHaveLength(1);
  });

  it('when the facts are purged after ninety days, then the lists of the months before go with them, and the newer month stays', async () => {
    const old = freezeDate(Date.now() - 150 * DAY);
    try {
      await send({ events: [{ name: 'login', at: now() }] }, bearer(ana)).expect(202);
    } finally {
      old.restore();
    }
    await send({ events: [{ name: 'play', at: now(), props: { contentId } }] }, bearer(ana)).expect(202);
    expect(await ProductEventListModel.countDocuments({})).toBe(2);

    expect(await purgeOldProductEvents()).toBe(1);
    const left = await ProductEventListModel.find({}).lean();
    expect(left.map((listed) => listed.key)).toEqual([`${ana.id}:${new Date().toISOString().slice(0, 7)}`]);
    expect((await download(ana)).map((event) => event.name)).toEqual(['play']);
  });
});

describe('POST /events: what is stored', () => {
  it('when a visitor sends a batch, then 202, one fact per event with its name, time and piece, and no member', async () => {
    const first = new Date(Date.now() - 2_000).toISOString();
    const res = await send({
      events: [
        { name: 'play', at: first, props: { contentId } },
        { name: 'signup', at: now() },
      ],
    }).expect(202);
    expect(res.body).toEqual({ stored: 2 });
    const facts = await stored();
    expect(facts.map(({ name, at, memberId, props }) => ({ name, at: at.toISOString(), memberId, props }))).toEqual([
      { name: 'play', at: first, memberId: null, props: { contentId } },
      { name: 'signup', at: facts[1]!.at.toISOString(), memberId: null, props: {} },
    ]);
    // Each fact is its own document, under an id of its own, and holds nothing else.
    expect(new Set(facts.map((fact) => String(fact._id))).size).toBe(2);
    expect(Object.keys(facts[0]!).sort()).toEqual(['_id', 'at', 'memberId', 'name', 'props']);
  });

  it('when a member sends with their bearer token, then the facts name the member, and the answer gives an events token for beacons', async () => {
    const res = await send({ events: [{ name: 'login', at: now() }] }, bearer(ana)).expect(202);
    expect(res.body).toEqual({ stored: 1, eventsToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), eventsTokenExpiresIn: 3600 });
    expect((await stored()).map((fact) => String(fact.memberId))).toEqual([ana.id]);

    // A beacon carries no Authorization header: the events token in the body says who sent it, and gets no new token.
    const beacon = await send({ events: [{ name: 'knack', at: now(), props: { contentId } }], eventsToken: res.body.eventsToken }).expect(202);
    expect(beacon.body).toEqual({ stored: 1 });
    expect((await stored()).map((fact) => [fact.name, String(fact.memberId)])).toEqual([
      ['login', ana.id],
      ['knack', ana.id],
    ]);
  });

  it('when the body names a member, then 400 and nothing is stored: the member comes only from the token', async () => {
    const asBea = await send({ events: [{ name: 'follow', at: now() }], memberId: bea.id }, bearer(ana)).expect(400);
    expect(asBea.body.message).toBe('memberId must NOT have additional properties');
    const inProps = await send({ events: [{ name: 'follow', at: now(), props: { userId: bea.id } }] }, bearer(ana)).expect(400);
    expect(inProps.body.message).toBe('events.0.props.userId must NOT have additional properties');
    expect(await ProductEventModel.countDocuments({})).toBe(0);
  });

  it('when an events token is tampered with, made for another use, or expired, then 401 and nothing is stored', async () => {
    const clock = freezeDate();
    try {
      const { eventsToken } = (await send({ events: [{ name: 'play', at: now() }] }, bearer(ana)).expect(202)).body as { eventsToken: string };
      await ProductEventModel.deleteMany({});
      const [head, payload, signature] = eventsToken.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const asBea = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: bea.id })).toString('base64url')}.${signature}`;
      const refused = await send({ events: [{ name: 'play', at: now() }], eventsToken: asBea }).expect(401);
      expect(refused.body.message).toBe('The events token is not valid or has expired.');
      // An access token is not an events token, though both are signed by Knack.
      await send({ events: [{ name: 'play', at: now() }], eventsToken: ana.token }).expect(401);
      clock.advance(3_601_000);
      await send({ events: [{ name: 'play', at: now() }], eventsToken }).expect(401);
    } finally {
      clock.restore();
    }
    expect(await ProductEventModel.countDocuments({})).toBe(0);
  });
});

describe('POST /events: what is refused', () => {
  it('when an event has an unknown name, an extra field, personal data or free text, then 400 with the field, and nothing of the batch is stored', async () => {
    const good = { name: 'play', at: now(), props: { contentId } };
    const unknown = await send({ events: [good, { name: 'pageview', at: now() }] }).expect(400);
    expect(unknown.body.message).toBe(
      'events.1.name must be equal to one of the allowed values: login, signup, forgot_password, reset_password, post_content, play, knack, follow, comment',
    );
    const email = await send({ events: [good, { name: 'signup', at: now(), props: { email: 'ana@example.com' } }] }).expect(400);
    expect(email.body.message).toBe('events.1.props.email must NOT have additional properties');
    const text = await send({ events: [{ ...good, props: { contentId: 'my favourite song by Ana' } }] }).expect(400);
    expect(text.body.message).toBe('events.0.props.contentId must match pattern "^[0-9a-fA-F]{24}$"');
    const extra = await send({ events: [{ ...good, username: 'ana' }] }).expect(400);
    expect(extra.body.message).toBe('events.0.username must NOT have additional properties');
    const noTime = await send({ events: [{ name: 'play' }] }).expect(400);
    expect(noTime.body.message).toBe("events.0.at must have required property 'at'");
    const old = await send({ events: [good, { name: 'play', at: new Date(Date.now() - 2 * DAY).toISOString() }] }).expect(400);
    expect(old.body.message).toBe('An event must have happened within a day of now.');
    await send({ events: [] }).expect(400);
    expect(await ProductEventModel.countDocuments({})).toBe(0);
  });

  it('when a batch holds more than 50 events, then 400; when its body is over 32 KB, then 413; nothing is stored', async () => {
    const event = { name: 'play', at: now(), props: { contentId } };
    const many = await send({ events: Array.from({ length: 51 }, () => event) }).expect(400);
    expect(many.body.message).toBe('events must NOT have more than 50 items');
    const padded = `${JSON.stringify({ events: [event] })}${' '.repeat(33 * 1024)}`;
    const large = await request(app).post('/api/v2/events').set('Content-Type', 'application/json').send(padded).expect(413);
    expect(large.body).toEqual({ message: 'A batch of events may be at most 32 KB.', code: 'payload_too_large', requestId: expect.any(String) });
    // The largest batch the contract allows fits well under the limit.
    await send({ events: Array.from({ length: 50 }, () => event) }).expect(202);
    expect(await ProductEventModel.countDocuments({})).toBe(50);
  });
});

describe('POST /events: Do Not Track', () => {
  it('when the browser sends DNT: 1 or Sec-GPC: 1, then 202 with stored 0, and nothing is stored or counted, not even the rate limit', async () => {
    const batch = { events: [{ name: 'login', at: now() }] };
    expect((await send(batch, { ...bearer(ana), DNT: '1' }).expect(202)).body).toEqual({ stored: 0 });
    expect((await send(batch, { 'Sec-GPC': '1' }).expect(202)).body).toEqual({ stored: 0 });
    expect(await ProductEventModel.countDocuments({})).toBe(0);
    expect(await RateLimitModel.countDocuments({})).toBe(0);
    // DNT: 0 is a choice to be counted.
    expect((await send(batch, { DNT: '0' }).expect(202)).body).toEqual({ stored: 1 });
  });
});

describe('POST /events: limits', () => {
  it('when a member sends batches at once past their limit, then exactly the limit is stored and the rest answer 429 with Retry-After', async () => {
    const clock = freezeInWindow(EVENTS_LIMITS.member.windowMs, 1_000);
    try {
      const batch = { events: [{ name: 'play', at: now(), props: { contentId } }] };
      const answers = await Promise.all(Array.from({ length: EVENTS_LIMITS.member.max + 3 }, () => send(batch, bearer(bea))));
      const refused = answers.filter((res) => res.status === 429);
      expect(answers.filter((res) => res.status === 202)).toHaveLength(EVENTS_LIMITS.member.max);
      expect(refused).toHaveLength(3);
      expect(refused[0]!.body.message).toBe('Too many events sent. Please wait and try again.');
      expect(Number(refused[0]!.headers['retry-after'])).toBe(59);
    } finally {
      clock.restore();
    }
    expect(await ProductEventModel.countDocuments({ memberId: new Types.ObjectId(bea.id) })).toBe(EVENTS_LIMITS.member.max);
  });

  it('when an address has sent its limit, then a visitor and a member from it are refused 429 before anything is stored', async () => {
    const clock = freezeInWindow(EVENTS_LIMITS.address.windowMs, 30_000);
    try {
      const probe = await send({ events: [{ name: 'play', at: now() }] }).expect(202);
      expect(probe.body).toEqual({ stored: 1 });
      const address = (await RateLimitModel.findOne({ _id: /^events:ip:/ }).lean())!._id.split('|')[0]!;
      for (let i = 1; i < EVENTS_LIMITS.address.max; i += 1) await countHit(address, EVENTS_LIMITS.address);
      const visitor = await send({ events: [{ name: 'signup', at: now() }] }).expect(429);
      expect(visitor.body.message).toBe('Too many events sent. Please wait and try again.');
      expect(Number(visitor.headers['retry-after'])).toBe(30);
      await send({ events: [{ name: 'login', at: now() }] }, bearer(ana)).expect(429);
    } finally {
      clock.restore();
    }
    expect(await ProductEventModel.countDocuments({})).toBe(1);
  });
});

describe('the product-events job and the dashboard', () => {
  const TODAY = Date.UTC(2026, 10, 27, 12);
  const counts = async () =>
    Object.fromEntries((await ProductEventCountModel.find({}).lean()).filter((doc) => doc.count > 0).map((doc) => [doc._id, doc.count]));

  it('when the job runs, then each day holds the count of each event by `_id`, the same however often it runs, and a wrong count is repaired', async () => {
    const clock = freezeDate(TODAY - 3 * DAY);
    try {
      await send({ events: [{ name: 'comment', at: now(), props: { contentId } }] }).expect(202);
      clock.advance(2 * DAY);
      await send(
        {
          events: [
            { name: 'play', at: now() },
            { name: 'play', at: now() },
            { name: 'login', at: now() },
          ],
        },
        bearer(ana),
      ).expect(202);
      clock.advance(DAY);
      await send({
        events: [
          { name: 'play', at: now() },
          { name: 'knack', at: now(), props: { contentId } },
        ],
      }).expect(202);

      expect(await countProductEvents()).toEqual({ daysCounted: 7 });
      expect(await counts()).toEqual({ '2026-11-24:comment': 1, '2026-11-26:play': 2, '2026-11-26:login': 1, '2026-11-27:play': 1, '2026-11-27:knack': 1 });
      // Every event of every day of the week has its document, 0 included, under `{day}:{name}`.
      expect(await ProductEventCountModel.countDocuments({})).toBe(7 * EVENT_NAMES.length);
      expect(await ProductEventCountModel.findById('2026-11-27:follow').lean()).toEqual({
        _id: '2026-11-27:follow',
        day: '2026-11-27',
        name: 'follow',
        count: 0,
        countedAt: new Date(TODAY),
      });

      // Twice at once, then again: the same counts; only today and yesterday are counted again.
      const before = await counts();
      expect(await Promise.all([countProductEvents(), countProductEvents()])).toEqual([{ daysCounted: 2 }, { daysCounted: 2 }]);
      expect(await counts()).toEqual(before);

      // A count gone wrong is counted again from the facts.
      await ProductEventCountModel.updateOne({ _id: '2026-11-27:play' }, { $set: { count: 99 } });
      await countProductEvents();
      expect(await counts()).toEqual(before);
    } finally {
      clock.restore();
    }
  });

  it('when an admin opens the dashboard, then it shows the last 7 days of counts per event, oldest first, as the job last counted them', async () => {
    const admin = await adminMember();
    const clock = freezeDate(TODAY - DAY);
    try {
      await send({
        events: [
          { name: 'signup', at: now() },
          { name: 'forgot_password', at: now() },
        ],
      }).expect(202);
      clock.advance(DAY);
      await send(
        {
          events: [
            { name: 'post_content', at: now(), props: { contentId } },
            { name: 'follow', at: now() },
          ],
        },
        bearer(ana),
      ).expect(202);

      const zero = Object.fromEntries(EVENT_NAMES.map((name) => [name, 0]));
      const before = await request(app).get('/api/v2/admin/dashboard').set(bearer(admin)).expect(200);
      expect(before.body.productEvents).toEqual(
        ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'].map((day) => ({ day, counts: zero })),
      );

      await countProductEvents();
      const after = await request(app).get('/api/v2/admin/dashboard').set(bearer(admin)).expect(200);
      expect(after.body.productEvents.map((day: { day: string }) => day.day)).toEqual([
        '2026-11-21',
        '2026-11-22',
        '2026-11-23',
        '2026-11-24',
        '2026-11-25',
        '2026-11-26',
        '2026-11-27',
      ]);
      expect(after.body.productEvents[5]).toEqual({ day: '2026-11-26', counts: { ...zero, signup: 1, forgot_password: 1 } });
      expect(after.body.productEvents[6]).toEqual({ day: '2026-11-27', counts: { ...zero, post_content: 1, follow: 1 } });
    } finally {
      clock.restore();
    }
  });
});

describe('forwarding to PostHog', () => {
  let posthog: Awaited<ReturnType<typeof startPostHogStandIn>>;
  let forwarding: ReturnType<typeof createTestApp>;
  let lines: { level: number; msg: string; err?: unknown; events?: number }[];

  beforeAll(async () => {
    posthog = await startPostHogStandIn();
    lines = [];
    const logs = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    });
    forwarding = createTestApp({
      config: { analytics: { driver: 'posthog', posthog: { host: posthog.url, apiKey: 'phc_testProjectKey123' } } },
      logger: pino({ level: 'info' }, logs),
    });
  });
  afterAll(() => posthog.stop());

  const sendTo = (body: unknown, headers: Record<string, string> = {}) =>
    request(forwarding)
      .post('/api/v2/events')
      .set(headers)
      .send(body as object);

  it("when events are stored, then they reach PostHog's /batch/ with the project key: a member under their id, a visitor anonymously", async () => {
    const at = now();
    await sendTo({ events: [{ name: 'play', at, props: { contentId } }] }, bearer(ana)).expect(202);
    await sendTo({ events: [{ name: 'signup', at }] }).expect(202);
    await waitUntil(() => posthog.events().length === 2, { what: 'two events at the PostHog stand-in' });
    const facts = await stored();
    const member = posthog.events().find((event) => event.event === 'play')!;
    const visitor = posthog.events().find((event) => event.event === 'signup')!;
    expect(posthog.batches.every((batch) => batch.apiKey === 'phc_testProjectKey123')).toBe(true);
    expect(member).toEqual({
      event: 'play',
      distinct_id: ana.id,
      timestamp: at,
      uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      properties: { contentId, $geoip_disable: true, $lib: 'knack-server' },
    });
    // A visitor has no person in PostHog: an id of its own per batch, and no profile made for it.
    expect(visitor).toEqual({
      event: 'signup',
      distinct_id: expect.stringMatching(/^anonymous:[0-9a-f-]{36}$/),
      timestamp: at,
      uuid: expect.any(String),
      properties: { $process_person_profile: false, $geoip_disable: true, $lib: 'knack-server' },
    });
    // Each PostHog uuid is made from the stored fact's id, so a batch sent again is the same events to PostHog.
    expect(new Set([member.uuid, visitor.uuid]).size).toBe(2);
    expect(facts).toHaveLength(2);
  });

  it('when PostHog is slow, then the member is answered at once; when it fails, then the events stay stored and the failure is logged', async () => {
    posthog.hold();
    await sendTo({ events: [{ name: 'follow', at: now() }] }, bearer(bea)).expect(202);
    await waitUntil(() => posthog.waiting() === 1, { what: 'the batch waiting at the stand-in' });
    expect(posthog.events().filter((event) => event.event === 'follow')).toHaveLength(0);
    posthog.release();
    await waitUntil(() => posthog.events().some((event) => event.event === 'follow'), { what: 'the follow at the stand-in' });

    posthog.failBatches(1);
    await sendTo({ events: [{ name: 'comment', at: now(), props: { contentId } }] }, bearer(bea)).expect(202);
    await waitUntil(() => lines.some((line) => line.msg === 'product events not forwarded'), { what: 'the failure in the log' });
    expect(lines.find((line) => line.msg === 'product events not forwarded')).toMatchObject({
      level: 40,
      events: 1,
      err: expect.objectContaining({ message: 'PostHog answered 503: transient error, please retry' }),
    });
    expect(await ProductEventModel.countDocuments({ name: 'comment' })).toBe(1);
  });
});
