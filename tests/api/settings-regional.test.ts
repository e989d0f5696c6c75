/**
 * Regional settings on the real database: the country and region lists, saving where a member is from and their
 * time zone (names from the lists, IANA zones), the exact messages for anything else, and who may save (the member,
 * an admin; another member's id is 404).
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { UserExtModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;

const LISBON = { country: 'PT', state: 'Lisboa', city: 'Lisbon', timezone: 'Europe/Lisbon' };
const save = (caller: TestMember, id: string, body: Record<string, unknown>) =>
  request(app).post(`/api/v2/user-setting/update-regional/${id}`).set(bearer(caller)).send(body);

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
});

beforeEach(async () => {
  await clearDatabase();
  [ana, bea] = await Promise.all([createMember(), createMember()]);
});

describe('the country and region lists', () => {
  it('when asked, then every country comes by name with its code, and a country’s regions by name', async () => {
    const { countries } = (await request(app).get('/api/v2/user-setting/countries').expect(200)).body as { countries: { code: string; name: string }[] };
    expect(countries.length).toBeGreaterThan(240);
    expect(countries).toContainEqual({ code: 'PT', name: 'Portugal' });
    expect(countries.map((country) => country.name)).toEqual([...countries.map((country) => country.name)].sort((a, b) => a.localeCompare(b)));
    const { regions } = (await request(app).get('/api/v2/user-setting/regions/PT').expect(200)).body as { regions: { code: string | null; name: string }[] };
    expect(regions).toContainEqual({ code: '11', name: 'Lisboa' });
    // A region without a code of its own (the one region of the Turks and Caicos Islands).
    expect((await request(app).get('/api/v2/user-setting/regions/TC').expect(200)).body).toEqual({
      regions: [{ code: null, name: 'Turks and Caicos Islands' }],
    });
    await request(app).get('/api/v2/user-setting/regions/ZZ').expect(404);
    await request(app).get('/api/v2/user-setting/regions/pt').expect(400);
  });
});

describe('POST /user-setting/update-regional/{id}', () => {
  it('when Ana saves where she is from, then her extension has it, a region given by code is kept by name, and the city is trimmed', async () => {
    const res = await save(ana, ana.id, { ...LISBON, city: '  Lisbon ' }).expect(200);
    expect(res.body.userExt).toMatchObject(LISBON);
    const ext = await request(app).get(`/api/v2/user-setting/get-ext/${ana.id}`).set(bearer(ana)).expect(200);
    expect(ext.body.userExt).toMatchObject(LISBON);
    await save(ana, ana.id, { ...LISBON, state: '13', city: 'Porto' }).expect(200);
    expect(await UserExtModel.findOne({ userId: ana.id }).lean()).toMatchObject({ country: 'PT', state: 'Porto', city: 'Porto' });
    expect(await UserExtModel.countDocuments({ userId: ana.id })).toBe(1);
  });

  it('when she clears it, then nothing is kept', async () => {
    await save(ana, ana.id, LISBON).expect(200);
    const res = await save(ana, ana.id, { country: null, state: '', city: '', timezone: null }).expect(200);
    expect(res.body.userExt).toMatchObject({ country: null, state: '', city: '', timezone: null });
  });

  it('when a country, region or time zone is not one of the lists, then 400 with the exact message on its field', async () => {
    const refused = async (body: Record<string, unknown>, path: string, message: string) => {
      const res = await save(ana, ana.id, { ...LISBON, ...body }).expect(400);
      expect(res.body.errors).toEqual([{ path, message }]);
    };
    await refused({ country: 'XX' }, 'country', 'Choose a country from the list.');
    await refused({ state: 'Texas' }, 'state', 'Choose a state or region of the chosen country from the list.');
    await refused({ country: null }, 'state', 'Choose a country first.');
    await refused({ timezone: 'Mars/Olympus_Mons' }, 'timezone', 'Choose a time zone from the list.');
    await save(ana, ana.id, { ...LISBON, country: 'pt' }).expect(400);
    await save(ana, ana.id, { ...LISBON, city: 'x'.repeat(101) }).expect(400);
    expect(await UserExtModel.countDocuments({})).toBe(0);
  });

  it('when Bea saves for Ana, then 404 and nothing changes; an admin may; a visitor gets 401', async () => {
    expect((await save(bea, ana.id, LISBON).expect(404)).body.message).toBe('This member does not exist.');
    expect(await UserExtModel.countDocuments({})).toBe(0);
    await save(await adminMember(), ana.id, LISBON).expect(200);
    await request(app).post(`/api/v2/user-setting/update-regional/${ana.id}`).send(LISBON).expect(401);
  });
});
