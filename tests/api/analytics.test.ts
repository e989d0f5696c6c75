/**
 * Earnings analytics and the tag market on the real database: the daily rollups counted from a ledger built by the
 * factory (and the same again when every day is counted anew), each tag's daily price by the market rule (once a
 * day however often the job runs), a knack crediting the price in force when it happened, the analytics figures
 * against the ledger, the plan gate, and the listing-fee forecast.
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { addDays, startOfUtcDay, utcDayOf } from '../../server/lib/calendar';
import { rebuildRollups, runEarningsRollups } from '../../server/modules/analytics';
import {
  EarningsDayModel,
  hostsDayId,
  memberDayId,
  pieceDayId,
  tagDayId,
  type DayRollup,
  type HostDayRollup,
  type HostShare,
} from '../../server/modules/analytics/testing';
import { LedgerEntryModel, type LedgerEntryDoc } from '../../server/modules/ledger';
import { SubscriptionModel } from '../../server/modules/subscriptions';
import { TagHistoryModel, TagModel, tagsService, type TagDoc } from '../../server/modules/tags';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, knackBy, payListing, type TestMember, type TestPiece } from '../helpers/ledger-factory';

useTestDatabase();
const app = createTestApp();

/** Now, taken after each test's seed (the seeded prices are older than anything the test does). */
let NOW = new Date();
let TODAY = startOfUtcDay(NOW);
/** A time on the day `days` before today (0: today, at the start of the day, never later than now). */
const daysAgo = (days: number, minute = 1) =>
  days === 0
    ? new Date(TODAY.getTime() + Math.min(minute * 60_000, NOW.getTime() - TODAY.getTime()))
    : new Date(addDays(TODAY, -days).getTime() + minute * 60_000);
const viewer = () => new Types.ObjectId().toHexString();

let tags: Map<string, TagDoc>;
const tagId = (label: string) => String(tags.get(label)!._id);

beforeEach(async () => {
  await clearDatabase();
  await seedReferenceData();
  tags = new Map((await TagModel.find().lean<TagDoc[]>()).map((tag) => [tag.label, tag]));
  tagsService.invalidateTagLists();
  NOW = new Date();
  TODAY = startOfUtcDay(NOW);
});

type Rollup = Omit<DayRollup, 'countedAt'> | Omit<HostDayRollup, 'countedAt'>;
const byHost = (a: HostShare, b: HostShare) => String(a.host).localeCompare(String(b.host));

/** Every rollup but the job's bookkeeping (day indexes, state), without when it was counted. */
async function storedRollups(): Promise<Map<string, Rollup>> {
  const docs = (await EarningsDayModel.find().lean<(DayRollup | HostDayRollup)[]>()).filter((doc) => doc.day);
  return new Map(
    docs.map(({ countedAt: _counted, ...doc }) => [
      doc._id,
      'hosts' in doc ? { ...doc, hosts: doc.hosts.slice().sort(byHost) } : { ...doc, byTag: doc.byTag?.slice().sort((a, b) => a.tagId.localeCompare(b.tagId)) },
    ]),
  );
}

/**
 * The rollups as the ledger says they must be, worked out here from the raw entries: each knack counts once for its
 * piece and its tag that day, and for each member it credited, by the tag that priced it (named on the entry, or for
 * an entry that names none, the tag of its piece: `tagOfPiece`), and by the site it was made on (none: Knack itself).
 */
async function expectedRollups(tagOfPiece: Map<string, string>): Promise<Map<string, Rollup>> {
  const hostDays = new Map<string, Omit<HostDayRollup, 'countedAt'>>();
  const expected = new Map<string, Omit<DayRollup, 'countedAt'> & { pieceSet?: Set<string> }>();
  const add = (id: string, day: string) => {
    if (!expected.has(id)) expected.set(id, { _id: id, day, knacks: 0, valueMicros: 0 });
    return expected.get(id)!;
  };
  for (const entry of await LedgerEntryModel.find({ kind: 'knack' }).lean<LedgerEntryDoc[]>()) {
    const day = utcDayOf(entry.at);
    const piece = String(entry.contentId);
    const tag = entry.tagId ? String(entry.tagId) : tagOfPiece.get(piece)!;
    const value = entry.legs.filter((leg) => leg.amountMicros > 0).reduce((sum, leg) => sum + leg.amountMicros, 0);
    const pieceDay = add(pieceDayId(piece, day), day);
    pieceDay.knacks += 1;
    pieceDay.valueMicros += value;
    const tagDay = add(tagDayId(tag, day), day);
    tagDay.knacks += 1;
    tagDay.valueMicros += value;
    tagDay.pieceSet = (tagDay.pieceSet ?? new Set()).add(piece);
    tagDay.pieces = tagDay.pieceSet.size;
    for (const leg of entry.legs.filter((one) => one.account.startsWith('user:') && one.amountMicros > 0)) {
      const memberDay = add(memberDayId(leg.account.slice(5), day), day);
      memberDay.knacks += 1;
      memberDay.valueMicros += leg.amountMicros;
      memberDay.byTag ??= [];
      const share = memberDay.byTag.find((one) => one.tagId === tag) ?? memberDay.byTag[memberDay.byTag.push({ tagId: tag, knacks: 0, earnedMicros: 0 }) - 1]!;
      share.knacks += 1;
      share.earnedMicros += leg.amountMicros;
      const hostsId = hostsDayId(leg.account.slice(5), day);
      const hostDay = hostDays.get(hostsId) ?? hostDays.set(hostsId, { _id: hostsId, day, hosts: [] }).get(hostsId)!;
      const site = entry.embedHost ?? null;
      const row =
        hostDay.hosts.find((one) => one.host === site) ?? hostDay.hosts[hostDay.hosts.push({ host: site, plays: 0, knacks: 0, earnedMicros: 0 }) - 1]!;
      row.knacks += 1;
      row.earnedMicros += leg.amountMicros;
    }
  }
  return new Map<string, Rollup>([
    ...[...expected].map(([id, { pieceSet: _set, ...doc }]) => [id, { ...doc, byTag: doc.byTag?.sort((a, b) => a.tagId.localeCompare(b.tagId)) }] as const),
    ...[...hostDays].map(([id, doc]) => [id, { ...doc, hosts: doc.hosts.sort(byHost) }] as const),
  ]);
}

interface Catalogue {
  ana: TestMember;
  bo: TestMember;
  jazz: TestPiece;
  travel: TestPiece;
  rock: TestPiece;
  tagOfPiece: Map<string, string>;
}

/**
 * Ana's Jazz song (listed by Bo, a supporter: 90% to Ana, 10% to Bo) and her Travel photo (listed by herself), and
 * Bo's Rock song that nobody listed (its knacks count, worth nothing). Knacks over the last five days; the Jazz ones
 * name their tag as knack/add writes them, the others are as entries made before knacks named one.
 */
async function catalogue(): Promise<Catalogue> {
  const ana = await createMember({ username: 'ana_analytics' });
  const bo = await createMember({ username: 'bo_analytics' });
  const jazz = await payListing(await createPiece(ana, { type: 'music', subTag: 'Jazz', title: 'Blue Hour' }), bo);
  const travel = await payListing(await createPiece(ana, { type: 'photos', subTag: 'Travel', title: 'Harbour' }), ana);
  const rock = await createPiece(bo, { type: 'music', subTag: 'Rock', title: 'Loud' });
  for (const [piece, day, count, named] of [
    [jazz, 4, 2, true],
    [jazz, 1, 3, true],
    [jazz, 0, 1, true],
    [travel, 1, 2, false],
    [travel, 0, 2, false],
    [rock, 1, 4, false],
  ] as const) {
    // Every other named knack was made in a player embedded on a fan's site.
    for (let i = 0; i < count; i += 1)
      await knackBy(viewer(), piece, daysAgo(day, i + 1), named ? tagId('Jazz') : undefined, named && i % 2 ? 'fans.example' : undefined);
  }
  const tagOfPiece = new Map([
    [jazz.id, tagId('Jazz')],
    [travel.id, tagId('Travel')],
    [rock.id, tagId('Rock')],
  ]);
  return { ana, bo, jazz, travel, rock, tagOfPiece };
}

describe('the earnings rollups', () => {
  it('when the job counts a factory ledger, then every member, piece and tag day is exact, and counting every day again gives the same', async () => {
    const { ana, bo, jazz, tagOfPiece } = await catalogue();
    await runEarningsRollups(NOW);
    const expected = await expectedRollups(tagOfPiece);
    expect(await storedRollups()).toEqual(expected);

    // Spelled out for one member and day: yesterday Ana had 3 Jazz knacks at 90% of $0.05 and 2 Travel ones at 100%.
    const anaYesterday = expected.get(memberDayId(ana.id, utcDayOf(daysAgo(1))))!;
    expect(anaYesterday).toMatchObject({ knacks: 5, valueMicros: 3 * 45_000 + 2 * 50_000 });
    expect(expected.get(memberDayId(bo.id, utcDayOf(daysAgo(1))))).toMatchObject({ knacks: 3, valueMicros: 3 * 5_000 });
    expect(expected.get(pieceDayId(jazz.id, utcDayOf(daysAgo(4))))).toMatchObject({ knacks: 2, valueMicros: 100_000 });
    expect(expected.get(tagDayId(tagId('Rock'), utcDayOf(daysAgo(1))))).toMatchObject({ knacks: 4, valueMicros: 0, pieces: 1 });

    // The tags' knacks of all time follow.
    const jazzTag = await TagModel.findById(tagId('Jazz')).lean<TagDoc>();
    expect(jazzTag!.totalReactedCount).toBe(6);
    expect((await TagModel.findById(tagId('Rock')).lean<TagDoc>())!.totalReactedCount).toBe(4);

    // More knacks today, and the job again: today follows, the closed days stay; twice changes nothing.
    await knackBy(viewer(), jazz, daysAgo(0, 30), tagId('Jazz'));
    await runEarningsRollups(NOW);
    await runEarningsRollups(NOW);
    const after = await expectedRollups(tagOfPiece);
    expect(await storedRollups()).toEqual(after);
    expect(after.get(pieceDayId(jazz.id, utcDayOf(NOW)))).toMatchObject({ knacks: 2 });
    expect((await TagModel.findById(tagId('Jazz')).lean<TagDoc>())!.totalReactedCount).toBe(7);

    // Every day counted again from the first entry: the same rollups.
    await EarningsDayModel.updateOne({ _id: pieceDayId(jazz.id, utcDayOf(daysAgo(4))) }, { $set: { knacks: 99 } });
    await rebuildRollups(NOW);
    expect(await storedRollups()).toEqual(after);
    expect((await TagModel.findById(tagId('Jazz')).lean<TagDoc>())!.totalReactedCount).toBe(7);
  });

  it("when a day closes, then the next day's run keeps its rollups and its tag knacks in the totals without counting it again", async () => {
    const { tagOfPiece } = await catalogue();
    await runEarningsRollups(NOW);
    const tomorrow = addDays(NOW, 1);
    await runEarningsRollups(tomorrow);
    expect(await storedRollups()).toEqual(await expectedRollups(tagOfPiece));
    expect((await TagModel.findById(tagId('Jazz')).lean<TagDoc>())!.totalReactedCount).toBe(6);
    const state = await EarningsDayModel.findById('state').lean<{ closedThrough: string }>();
    expect(state!.closedThrough).toBe(utcDayOf(addDays(tomorrow, -2)));
  });
});

describe('the tag market', () => {
  /** `count` knacks a day on a listed Jazz piece for each of `days` days before today. */
  async function busyJazz(days: number[], count: number) {
    const owner = await createMember();
    const piece = await payListing(await createPiece(owner, { type: 'music', subTag: 'Jazz' }), owner);
    for (const day of days) for (let i = 0; i < count; i += 1) await knackBy(viewer(), piece, daysAgo(day, i + 1), tagId('Jazz'));
    return piece;
  }

  it('when the job runs twice on a day, then each tag gets one price entry for the day: a busy week moves its price up 5%, a quiet tag stays at its floor', async () => {
    // 6 knacks a day over the last week, none in the 28 days before: as busy as it gets.
    await busyJazz([1, 2, 3, 4, 5, 6, 7], 6);
    await runEarningsRollups(NOW);
    await runEarningsRollups(NOW);
    const day = utcDayOf(NOW);
    const jazz = await TagModel.findById(tagId('Jazz')).lean<TagDoc>();
    expect(jazz).toMatchObject({ priceMicros: 656_250, diffPriceMicros: 31_250 });
    const entries = await TagHistoryModel.find({ tagId: tagId('Jazz') }).lean();
    expect(entries.filter((entry) => String(entry._id).endsWith(day))).toHaveLength(1);

    // Quiet: still at the floor, an entry for the day with no change.
    expect(await TagModel.findById(tagId('Pop')).lean<TagDoc>()).toMatchObject({ priceMicros: 625_000, diffPriceMicros: 0 });
    expect(await TagHistoryModel.countDocuments({ _id: `${tagId('Pop')}:${day}` })).toBe(1);

    // The new price takes effect a minute after the job wrote it (every instance's tag list holds it by then); its
    // history entry is dated so. Once that minute has passed, the history and the tag's rate answer the move.
    const entry = (await TagHistoryModel.findById(`${tagId('Jazz')}:${day}`).lean())!;
    expect(entry.createdAt.getTime()).toBe(NOW.getTime() + tagsService.PRICE_NOTICE_MS);
    await TagHistoryModel.updateOne({ _id: entry._id }, { $set: { createdAt: new Date(Date.now() - 1) } });
    const history = await request(app)
      .get(`/api/v2/tag-history/${tagId('Jazz')}/week`)
      .expect(200);
    expect(history.body.tagHistory.at(-1)).toMatchObject({ priceMicros: 656_250 });
    const tag = await request(app)
      .get(`/api/v2/tag/${tagId('Jazz')}`)
      .expect(200);
    expect(tag.body.tag).toMatchObject({ priceMicros: 656_250, rate: 4.76, knackPrice: 0.05 });

    // The next day prices again, from the same facts: one more entry.
    await runEarningsRollups(addDays(NOW, 1));
    expect(await TagHistoryModel.countDocuments({ tagId: tagId('Jazz') })).toBe(3);
  });

  it("when a tag's price changes, then a knack credits the value in force when it happens, and earlier entries keep theirs", async () => {
    const owner = await createMember();
    const photo = await payListing(await createPiece(owner, { type: 'photos', subTag: 'Travel' }), owner);
    const travel = tags.get('Travel')!._id;
    const knack = async () => {
      const member = await createMember();
      return (await request(app).post('/api/v2/knack/add').set(bearer(member)).send({ contentId: photo.id, userId: member.id }).expect(200)).body;
    };
    // A $0.75 tag price shows a $0.06 knack; set more than a minute ago, it is in force.
    const aWhileAgo = new Date(Date.now() - 2 * tagsService.PRICE_NOTICE_MS);
    await tagsService.priceTagForDay(travel, '2000-01-01', 750_000, aWhileAgo);
    expect(await knack()).toMatchObject({ earnedMicros: 60_000 });
    // A new price written now is in force a minute later: until then a knack credits the price before it.
    await tagsService.priceTagForDay(travel, '2000-01-02', 1_000_000, new Date());
    expect(await knack()).toMatchObject({ earnedMicros: 60_000 });
    expect((await TagHistoryModel.findById(`${String(travel)}:2000-01-02`).lean())!.createdAt.getTime()).toBeGreaterThan(Date.now());
    await TagModel.updateOne({ _id: travel }, { $set: { priceFrom: new Date(Date.now() - 1_000) } });
    tagsService.invalidateTagLists();
    expect(await knack()).toMatchObject({ earnedMicros: 80_000 });

    const entries = await LedgerEntryModel.find({ kind: 'knack', contentId: photo.id }).sort({ at: 1 }).lean<LedgerEntryDoc[]>();
    expect(entries.map((entry) => entry.legs.find((leg) => leg.amountMicros > 0)!.amountMicros)).toEqual([60_000, 60_000, 80_000]);
    expect(entries.map((entry) => String(entry.tagId))).toEqual([String(travel), String(travel), String(travel)]);
    // What the piece shows as one knack's worth is the value in force now.
    const money = await request(app).get(`/api/v2/knack/get-money/${photo.id}`).set(bearer(owner)).expect(200);
    expect(money.body).toMatchObject({ knackValueMicros: 80_000, earnedMicros: 200_000 });
  });
});

describe('GET /api/v2/analytics/earnings/{id}', () => {
  const onPlan = (member: TestMember) => SubscriptionModel.create({ userId: member.id, planId: 2, subscriptionId: `sub-${member.id}` });

  it("when a member on a plan asks for a week of Music, then the days, the donut and the chosen tag's prices match the ledger", async () => {
    const { ana } = await catalogue();
    await onPlan(ana);
    await runEarningsRollups(NOW);
    const res = await request(app).get(`/api/v2/analytics/earnings/${ana.id}`).set(bearer(ana)).expect(200);
    const body = res.body;
    expect(body).toMatchObject({ userId: ana.id, period: 'week', type: 'music', from: utcDayOf(daysAgo(6)), to: utcDayOf(NOW) });
    expect(body.days).toHaveLength(7);
    // Music only: the Jazz knacks at 90% of $0.05 (2 + 3 + 1), the Travel photo is in Photos.
    expect(body).toMatchObject({ earnedMicros: 6 * 45_000, knacks: 6, earned: 0.27 });
    expect(body.days.find((day: { day: string }) => day.day === utcDayOf(daysAgo(1)))).toMatchObject({ earnedMicros: 135_000, knacks: 3, tagPrice: 0.625 });
    expect(body.byTag).toEqual([{ tagId: tagId('Jazz'), label: 'Jazz', earned: 0.27, earnedMicros: 270_000, knacks: 6, share: 100 }]);
    expect(body.tag).toMatchObject({ id: tagId('Jazz'), label: 'Jazz', knackPrice: 0.05 });
    expect(body.topTags[0]).toMatchObject({ label: 'Jazz', totalReactedCount: 6 });
    expect(body.countedAt).not.toBeNull();

    // A month of Photos: the Travel knacks, all Ana's (she listed the photo herself).
    const photos = await request(app).get(`/api/v2/analytics/earnings/${ana.id}?period=month&type=photos`).set(bearer(ana)).expect(200);
    expect(photos.body.days).toHaveLength(30);
    expect(photos.body).toMatchObject({ earnedMicros: 4 * 50_000, knacks: 4, tag: { label: 'Travel' } });
  });

  it('when more than three tags earned, then the donut has the three that earned most and the rest as Other', async () => {
    const ana = await createMember();
    await onPlan(ana);
    for (const [label, knacks] of [
      ['Jazz', 5],
      ['Rock', 4],
      ['Pop', 3],
      ['Beats', 2],
      ['Country', 1],
    ] as const) {
      const piece = await payListing(await createPiece(ana, { type: 'music', subTag: label }), ana);
      for (let i = 0; i < knacks; i += 1) await knackBy(viewer(), piece, daysAgo(1, i + 1), tagId(label));
    }
    await runEarningsRollups(NOW);
    const res = await request(app).get(`/api/v2/analytics/earnings/${ana.id}`).set(bearer(ana)).expect(200);
    expect(res.body.byTag.map((slice: { label: string; knacks: number; share: number }) => [slice.label, slice.knacks, slice.share])).toEqual([
      ['Jazz', 5, 33.33],
      ['Rock', 4, 26.67],
      ['Pop', 3, 20],
      ['Other', 3, 20],
    ]);
    // Another tag's prices for the line, when asked for.
    const rock = await request(app)
      .get(`/api/v2/analytics/earnings/${ana.id}?tagId=${tagId('Rock')}`)
      .set(bearer(ana))
      .expect(200);
    expect(rock.body.tag).toMatchObject({ label: 'Rock' });
    await request(app).get(`/api/v2/analytics/earnings/${ana.id}?tagId=${new Types.ObjectId()}`).set(bearer(ana)).expect(404);
  });

  it("when a member has no plan, then 403 with where to get one; another member's figures 404; an admin sees them; no session 401", async () => {
    const ana = await createMember();
    const bo = await createMember();
    const refused = await request(app).get(`/api/v2/analytics/earnings/${ana.id}`).set(bearer(ana)).expect(403);
    expect(refused.body.message).toBe('Analytics come with a plan: see the plans on Pricing.');
    await onPlan(bo);
    const other = await request(app).get(`/api/v2/analytics/earnings/${ana.id}`).set(bearer(bo)).expect(404);
    expect(other.body.message).toBe('This member does not exist.');
    await request(app)
      .get(`/api/v2/analytics/earnings/${ana.id}`)
      .set(bearer(await adminMember()))
      .expect(200);
    await request(app).get(`/api/v2/analytics/earnings/${ana.id}`).expect(401);
    await request(app).get(`/api/v2/analytics/earnings/${ana.id}?period=year`).set(bearer(ana)).expect(400);
  });
});

describe('GET /api/v2/analytics/forecast/{id}', () => {
  it("when a piece has its own knacks, then the fee's payback comes from them with a range; for a supporter, from their 10%", async () => {
    const ana = await createMember();
    // Uploaded 9 days ago (10 days seen, today included), 10 knacks: one a day.
    const song = await createPiece(ana, { type: 'music', subTag: 'Jazz', uploadedAt: daysAgo(9) });
    for (let i = 0; i < 10; i += 1) await knackBy(viewer(), song, daysAgo(i % 10, i + 1));
    await runEarningsRollups(NOW);
    const owner = await request(app).get(`/api/v2/analytics/forecast/${song.id}`).set(bearer(ana)).expect(200);
    expect(owner.body).toMatchObject({
      status: 'estimate',
      basis: 'piece',
      feeMicros: 650_000,
      knackPriceMicros: 50_000,
      sharePercent: 100,
      observedDays: 10,
      observedKnacks: 10,
      knacksPerDay: 1,
      days: 13,
      daysLow: 9,
      daysHigh: 35,
    });
    expect(owner.body.message).toBe("At $0.05 a knack and this piece's 1 knack a day, the $0.65 fee pays back in about 13 days (9–35).");

    const bo = await createMember();
    const supporter = await request(app).get(`/api/v2/analytics/forecast/${song.id}`).set(bearer(bo)).expect(200);
    expect(supporter.body).toMatchObject({ sharePercent: 10, days: 130 });
  });

  it("when a new piece has too few knacks, then its tag's typical piece is used; with a quiet tag too, it says there is too little data", async () => {
    const ana = await createMember();
    const fresh = await createPiece(ana, { type: 'music', subTag: 'Rock' });
    await runEarningsRollups(NOW);
    const quiet = await request(app).get(`/api/v2/analytics/forecast/${fresh.id}`).set(bearer(ana)).expect(200);
    expect(quiet.body).toMatchObject({ status: 'too-little-data', basis: null, days: null });
    expect(quiet.body.message).toBe(
      'Too little data to say yet: this piece has 0 knacks, and its tag too few active days, to tell when the $0.65 fee pays back.',
    );

    // Rock: on each of 10 days, 2 pieces knacked 4 and 2 times: 3 knacks a piece each day.
    const other = await createMember();
    const [a, b] = [await createPiece(other, { type: 'music', subTag: 'Rock' }), await createPiece(other, { type: 'music', subTag: 'Rock' })];
    for (let day = 1; day <= 10; day += 1) {
      for (let i = 0; i < 4; i += 1) await knackBy(viewer(), a, daysAgo(day, i + 1), tagId('Rock'));
      for (let i = 0; i < 2; i += 1) await knackBy(viewer(), b, daysAgo(day, i + 10), tagId('Rock'));
    }
    await runEarningsRollups(NOW);
    const typical = await request(app).get(`/api/v2/analytics/forecast/${fresh.id}`).set(bearer(ana)).expect(200);
    expect(typical.body).toMatchObject({ status: 'estimate', basis: 'tag', knacksPerDay: 3, days: 5 });
    expect(typical.body.message).toBe("At $0.05 a knack and a typical piece of its tag's 3 knacks a day, the $0.65 fee pays back in about 5 days.");
  });

  it('when the piece is not one the caller may see, then 404', async () => {
    const ana = await createMember();
    await request(app).get(`/api/v2/analytics/forecast/${new Types.ObjectId()}`).set(bearer(ana)).expect(404);
  });
});
