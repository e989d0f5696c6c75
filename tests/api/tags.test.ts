import request from 'supertest';
import { Types } from 'mongoose';
import { seedReferenceData } from '../../server/db/seed';
import { utcDayOf } from '../../server/lib/calendar';
import { priceEntryId, TagHistoryModel, TagModel, tagsService } from '../../server/modules/tags';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();
const app = createTestApp();

const MUSIC_SUBTAGS = ['Music 2', 'Rock', 'Pop', 'Hip Hop', 'R&B', 'Country', 'Jazz', 'Instrumentals', 'Beats'];
const ART_SUBTAGS = ['A.I. Art', 'Fractal Art', 'Pixel Art', 'Fantasy Art', 'Digital Art'];
const PHOTO_SUBTAG_COUNT = 17;

interface TagBody {
  id: string;
  label: string;
  parentTag: string | null;
  type: string;
  knackPrice: number;
  price: number;
  priceMicros: number;
  diffPrice: number;
  rate: number;
  totalReactedCount: number;
}

beforeAll(async () => {
  await seedReferenceData();
});

async function tagByLabel(label: string): Promise<TagBody> {
  const res = await request(app)
    .get(`/api/v2/tag/label/${encodeURIComponent(label)}`)
    .expect(200);
  return res.body.tag;
}

describe('GET /api/v2/tag/get-all', () => {
  it('when called, then it lists the three main tags first and every sub-tag', async () => {
    const res = await request(app).get('/api/v2/tag/get-all').expect(200).expect('Content-Type', /json/);
    const tags: TagBody[] = res.body.tags;
    expect(tags.slice(0, 3).map((t) => t.label)).toEqual(['Music', 'Art', 'Photos']);
    expect(tags.slice(0, 3).every((t) => t.parentTag === null)).toBe(true);
    expect(tags).toHaveLength(3 + MUSIC_SUBTAGS.length + ART_SUBTAGS.length + PHOTO_SUBTAG_COUNT);
    const music = tags[0]!;
    expect(tags.filter((t) => t.parentTag === music.id).map((t) => t.label)).toEqual(MUSIC_SUBTAGS);
    expect(tags.find((t) => t.label === 'Architecture & Buildings')).toMatchObject({ type: 'photos' });
  });

  it('when a sub-tag is shown, then its knack price is 0.05, or 0.99 for Digital Art and Music 2', async () => {
    const { body } = await request(app).get('/api/v2/tag/get-all').expect(200);
    const price = (label: string) => body.tags.find((t: TagBody) => t.label === label).knackPrice;
    expect(price('Rock')).toBe(0.05);
    expect(price('Travel')).toBe(0.05);
    expect(price('Music 2')).toBe(0.99);
    expect(price('Digital Art')).toBe(0.99);
    const rock = body.tags.find((t: TagBody) => t.label === 'Rock');
    expect(rock).toMatchObject({ price: 0.625, priceMicros: 625_000, diffPrice: 0, rate: 0 });
  });

  it('when filtered by parent, then only that main tag’s sub-tags come back', async () => {
    const art = await tagByLabel('Art');
    const res = await request(app).get('/api/v2/tag/get-all').query({ parent: art.id }).expect(200);
    expect(res.body.tags.map((t: TagBody) => t.label)).toEqual(ART_SUBTAGS);
  });

  it('when the parent is not an id, then 400 in the error shape', async () => {
    const res = await request(app).get('/api/v2/tag/get-all').query({ parent: 'music' }).expect(400);
    expect(res.body).toMatchObject({ code: 'bad_request', errors: [{ path: 'parent' }] });
    expect(res.body.message).toMatch(/parent/);
  });

  it('when an unknown query parameter is sent, then 400 names it', async () => {
    const res = await request(app).get('/api/v2/tag/get-all').query({ sort: 'x' }).expect(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'sort' });
  });
});

describe('GET /api/v2/tag/{id}', () => {
  it('when the tag exists, then it is returned with its price fields', async () => {
    const hipHop = await tagByLabel('Hip Hop');
    const res = await request(app).get(`/api/v2/tag/${hipHop.id}`).expect(200);
    expect(res.body.tag).toEqual(hipHop);
  });

  it('when no tag has that id, then 404', async () => {
    const res = await request(app).get(`/api/v2/tag/${new Types.ObjectId()}`).expect(404);
    expect(res.body).toMatchObject({ message: 'Tag not found', code: 'not_found' });
  });

  it('when the id is malformed, then 400 and nothing is queried', async () => {
    const res = await request(app).get('/api/v2/tag/not-an-id').expect(400);
    expect(res.body).toMatchObject({ code: 'bad_request', errors: [{ path: 'id' }] });
  });
});

describe('GET /api/v2/tag/label/{label}', () => {
  it.each([
    ['R&B', 'R&B'],
    ['r&b', 'R&B'],
    ['r-b', 'R&B'],
    ['hip-hop', 'Hip Hop'],
    ['A.I. Art', 'A.I. Art'],
    ['architecture-buildings', 'Architecture & Buildings'],
  ])('when asked for %s, then it finds %s', async (asked, label) => {
    expect((await tagByLabel(asked)).label).toBe(label);
  });

  it('when the label is unknown, then 404 with a message naming it', async () => {
    const res = await request(app).get('/api/v2/tag/label/Polka').expect(404);
    expect(res.body).toMatchObject({ code: 'not_found', message: 'No tag is labelled "Polka"' });
  });

  it('when the label is too long, then 400', async () => {
    await request(app)
      .get(`/api/v2/tag/label/${'x'.repeat(61)}`)
      .expect(400);
  });
});

describe('GET /api/v2/tag/get-top-sub-tags/{id}', () => {
  it('when sub-tags have reactions, then the most reacted come first, limited', async () => {
    const photos = await tagByLabel('Photos');
    await TagModel.updateOne({ labelLower: 'nature' }, { $set: { totalReactedCount: 40 } });
    await TagModel.updateOne({ labelLower: 'cars' }, { $set: { totalReactedCount: 12 } });
    const res = await request(app).get(`/api/v2/tag/get-top-sub-tags/${photos.id}`).query({ limit: 3 }).expect(200);
    expect(res.body.tags.map((t: TagBody) => [t.label, t.totalReactedCount])).toEqual([
      ['Nature', 40],
      ['Cars', 12],
      ['Travel', 0],
    ]);
  });

  it('when no limit is given, then at most 10 come back', async () => {
    const photos = await tagByLabel('Photos');
    const res = await request(app).get(`/api/v2/tag/get-top-sub-tags/${photos.id}`).expect(200);
    expect(res.body.tags).toHaveLength(10);
  });

  it.each([0, 51, 'ten'])('when the limit is %p, then 400', async (limit) => {
    const photos = await tagByLabel('Photos');
    await request(app).get(`/api/v2/tag/get-top-sub-tags/${photos.id}`).query({ limit }).expect(400);
  });

  it('when the main tag does not exist, then 404', async () => {
    await request(app).get(`/api/v2/tag/get-top-sub-tags/${new Types.ObjectId()}`).expect(404);
  });
});

describe('GET /api/v2/tag-history/{id}/{period}', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it('when the price changed inside and before the period, then the week shows the starting price and the changes', async () => {
    const pop = await tagByLabel('Pop');
    const now = Date.now();
    await TagHistoryModel.deleteMany({ tagId: pop.id });
    // Entries as a release before they carried the price before them wrote them: the week's start is looked back for.
    const entry = (priceMicros: number, at: number) => ({
      _id: priceEntryId(pop.id, utcDayOf(new Date(at))),
      tagId: pop.id,
      priceMicros,
      createdAt: new Date(at),
    });
    await TagHistoryModel.create([entry(500_000, now - 20 * DAY), entry(600_000, now - 3 * DAY), entry(625_000, now - 1 * DAY)]);

    const week = await request(app).get(`/api/v2/tag-history/${pop.id}/week`).expect(200);
    expect(week.body.tagId).toBe(pop.id);
    expect(week.body.period).toBe('week');
    expect(week.body.tagHistory.map((e: { priceMicros: number }) => e.priceMicros)).toEqual([500_000, 600_000, 625_000]);
    expect(week.body.tagHistory[1]).toMatchObject({ price: 0.6 });
    const start = new Date(week.body.tagHistory[0].createdAt).getTime();
    expect(Math.abs(start - (now - 7 * DAY))).toBeLessThan(60_000);

    const month = await request(app).get(`/api/v2/tag-history/${pop.id}/month`).expect(200);
    expect(month.body.tagHistory.map((e: { priceMicros: number }) => e.priceMicros)).toEqual([500_000, 600_000, 625_000]);
    expect(month.body.tagHistory[0].createdAt).toBe(new Date(now - 20 * DAY).toISOString());
  });

  it('when the daily job priced a tag after weeks without a price, then the month starts at the price in force before its first change, read by key', async () => {
    const soul = await tagByLabel('Country');
    const seeded = (await TagModel.findById(soul.id).lean())!.priceMicros;
    const now = Date.now();
    // The seed's price is older than the month and the lookback; then nothing until three days ago.
    await TagHistoryModel.updateOne({ _id: priceEntryId(soul.id, 'seed') }, { $set: { createdAt: new Date(now - 90 * DAY) } });
    await tagsService.priceTagForDay(new Types.ObjectId(soul.id), utcDayOf(new Date(now - 3 * DAY)), 700_000, new Date(now - 3 * DAY));
    const month = await request(app).get(`/api/v2/tag-history/${soul.id}/month`).expect(200);
    expect(month.body.tagHistory.map((e: { priceMicros: number }) => e.priceMicros)).toEqual([seeded, 700_000]);
    // With no change in the period, the price in force all along.
    await TagHistoryModel.deleteOne({ _id: priceEntryId(soul.id, utcDayOf(new Date(now - 3 * DAY))) });
    await TagModel.updateOne({ _id: soul.id }, { $set: { priceMicros: seeded, priceFrom: new Date(now - 90 * DAY), previousPriceMicros: null } });
    const week = await request(app).get(`/api/v2/tag-history/${soul.id}/week`).expect(200);
    expect(week.body.tagHistory.map((e: { priceMicros: number }) => e.priceMicros)).toEqual([seeded]);
  });

  it('when a tag was just seeded, then its history is the seeded price', async () => {
    const rock = await tagByLabel('Rock');
    const res = await request(app).get(`/api/v2/tag-history/${rock.id}/month`).expect(200);
    expect(res.body.tagHistory).toEqual([expect.objectContaining({ priceMicros: 625_000, price: 0.625 })]);
  });

  it('when the period is not week or month, then 400', async () => {
    const rock = await tagByLabel('Rock');
    const res = await request(app).get(`/api/v2/tag-history/${rock.id}/year`).expect(400);
    expect(res.body.errors[0].path).toBe('period');
  });

  it('when the tag does not exist, then 404', async () => {
    await request(app).get(`/api/v2/tag-history/${new Types.ObjectId()}/week`).expect(404);
  });
});
