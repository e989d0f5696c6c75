/**
 * A member's settings on the real database, group by group:
 * - where they are from: the country and region lists, saving a country, a region of it by name, a city and an
 *   IANA time zone, and the exact message for anything else;
 * - personal details: sex, birthday (a past date after 1900), bio (plain text, at most 1,000 characters) and the
 *   mail choices;
 * - social profiles: addresses or names on each site kept as the profile's address, anything else refused with
 *   the site's message, shown on the public profile.
 * Each group is saved by the member or an admin; another member's id is 404.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { UserExtModel, UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;

const LISBON = { country: 'PT', state: 'Lisboa', city: 'Lisbon', timezone: 'Europe/Lisbon' };
const DETAILS = { sex: 'W', birthday: '1994-03-08', bio: '  Songs from Lisbon.  ', willReceiveNews: false, willReceivePromotes: true };
const NONE = { facebook: '', twitter: '', linkedin: '', instagram: '' };

const saveGroup = (group: 'regional' | 'personal' | 'social') => (caller: TestMember, id: string, body: Record<string, unknown>) =>
  request(app).post(`/api/v2/user-setting/update-${group}/${id}`).set(bearer(caller)).send(body);
const saveRegional = saveGroup('regional');
const savePersonal = saveGroup('personal');
/** The social group with every site left empty but those given. */
const saveSocial = (caller: TestMember, id: string, body: Record<string, string>) => saveGroup('social')(caller, id, { ...NONE, ...body });

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
    const res = await saveRegional(ana, ana.id, { ...LISBON, city: '  Lisbon ' }).expect(200);
    expect(res.body.userExt).toMatchObject(LISBON);
    const ext = await request(app).get(`/api/v2/user-setting/get-ext/${ana.id}`).set(bearer(ana)).expect(200);
    expect(ext.body.userExt).toMatchObject(LISBON);
    await saveRegional(ana, ana.id, { ...LISBON, state: '13', city: 'Porto' }).expect(200);
    expect(await UserExtModel.findOne({ userId: ana.id }).lean()).toMatchObject({ country: 'PT', state: 'Porto', city: 'Porto' });
    expect(await UserExtModel.countDocuments({ userId: ana.id })).toBe(1);
  });

  it('when she clears it, then nothing is kept', async () => {
    await saveRegional(ana, ana.id, LISBON).expect(200);
    const res = await saveRegional(ana, ana.id, { country: null, state: '', city: '', timezone: null }).expect(200);
    expect(res.body.userExt).toMatchObject({ country: null, state: '', city: '', timezone: null });
  });

  it('when a country, region or time zone is not one of the lists, then 400 with the exact message on its field', async () => {
    const refused = async (body: Record<string, unknown>, path: string, message: string) => {
      const res = await saveRegional(ana, ana.id, { ...LISBON, ...body }).expect(400);
      expect(res.body.errors).toEqual([{ path, message }]);
    };
    await refused({ country: 'XX' }, 'country', 'Choose a country from the list.');
    await refused({ state: 'Texas' }, 'state', 'Choose a state or region of the chosen country from the list.');
    await refused({ country: null }, 'state', 'Choose a country first.');
    await refused({ timezone: 'Mars/Olympus_Mons' }, 'timezone', 'Choose a time zone from the list.');
    await saveRegional(ana, ana.id, { ...LISBON, country: 'pt' }).expect(400);
    await saveRegional(ana, ana.id, { ...LISBON, city: 'x'.repeat(101) }).expect(400);
    expect(await UserExtModel.countDocuments({})).toBe(0);
  });

  it('when Bea saves for Ana, then 404 and nothing changes; an admin may; a visitor gets 401', async () => {
    expect((await saveRegional(bea, ana.id, LISBON).expect(404)).body.message).toBe('This member does not exist.');
    expect(await UserExtModel.countDocuments({})).toBe(0);
    await saveRegional(await adminMember(), ana.id, LISBON).expect(200);
    await request(app).post(`/api/v2/user-setting/update-regional/${ana.id}`).send(LISBON).expect(401);
  });
});

describe('POST /user-setting/update-personal/{id}', () => {
  it('when Ana saves her details, then her account has them (the bio trimmed), and her public profile shows the bio', async () => {
    const res = await savePersonal(ana, ana.id, DETAILS).expect(200);
    expect(res.body.user).toMatchObject({ sex: 'W', birthday: '1994-03-08', bio: 'Songs from Lisbon.', willReceiveNews: false, willReceivePromotes: true });
    expect((await request(app).get(`/api/v2/user/profile/${ana.username}`).expect(200)).body.user.bio).toBe('Songs from Lisbon.');
    const cleared = await savePersonal(ana, ana.id, { sex: null, birthday: null, bio: '', willReceiveNews: true, willReceivePromotes: false }).expect(200);
    expect(cleared.body.user).toMatchObject({ sex: null, birthday: null, bio: '', willReceiveNews: true, willReceivePromotes: false });
  });

  it('when a member never chose, then news mails are on and offers off', async () => {
    expect(await UserModel.findById(ana.id, { willReceiveNews: 1, willReceivePromotes: 1 }).lean()).toMatchObject({
      willReceiveNews: true,
      willReceivePromotes: false,
    });
  });

  it('when the birthday is not a past date after 1900 or the bio is too long, then 400 with the exact message on its field', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const birthday of [tomorrow, '1899-12-31']) {
      expect((await savePersonal(ana, ana.id, { ...DETAILS, birthday }).expect(400)).body.errors).toEqual([
        { path: 'birthday', message: 'Choose a birthday in the past (after 1900).' },
      ]);
    }
    await savePersonal(ana, ana.id, { ...DETAILS, birthday: '1994-02-30' }).expect(400);
    expect((await savePersonal(ana, ana.id, { ...DETAILS, bio: 'b'.repeat(1001) }).expect(400)).body.errors).toEqual([
      { path: 'bio', message: 'A bio can be at most 1,000 characters.' },
    ]);
    await savePersonal(ana, ana.id, { ...DETAILS, sex: 'X' }).expect(400);
    expect((await UserModel.findById(ana.id, { bio: 1 }).lean())!.bio).toBe('');
  });

  it('when Bea saves for Ana, then 404; an admin may; a visitor gets 401', async () => {
    await savePersonal(bea, ana.id, DETAILS).expect(404);
    await savePersonal(await adminMember(), ana.id, DETAILS).expect(200);
    await request(app).post(`/api/v2/user-setting/update-personal/${ana.id}`).send(DETAILS).expect(401);
  });
});

describe('POST /user-setting/update-social/{id}', () => {
  it('when Ana gives addresses and names, then each is kept as the profile’s address and her public profile shows them', async () => {
    const res = await saveSocial(ana, ana.id, {
      facebook: 'https://m.facebook.com/ana.lima.music/',
      twitter: '@ana_lima',
      linkedin: 'linkedin.com/in/ana-lima-123?trk=x',
      instagram: 'www.instagram.com/ana.lima_',
    }).expect(200);
    const expected = {
      facebook: 'https://www.facebook.com/ana.lima.music',
      twitter: 'https://x.com/ana_lima',
      linkedin: 'https://www.linkedin.com/in/ana-lima-123',
      instagram: 'https://www.instagram.com/ana.lima_',
    };
    expect(res.body).toEqual(expected);
    const profile = await request(app).get(`/api/v2/user/profile/${ana.username}`).expect(200);
    expect(profile.body.user.social).toEqual(expected);
    expect((await saveSocial(ana, ana.id, { twitter: 'https://twitter.com/ana_lima' }).expect(200)).body).toEqual({
      ...NONE,
      twitter: 'https://x.com/ana_lima',
    });
  });

  it('when an address is another site’s or a name breaks the site’s rule, then 400 with that site’s message on its field', async () => {
    const refused = async (body: Record<string, string>, path: string, message: string) => {
      expect((await saveSocial(ana, ana.id, body).expect(400)).body.errors).toEqual([{ path, message }]);
    };
    await refused({ facebook: 'https://evil.example/ana.lima' }, 'facebook', 'Enter your Facebook profile address or username.');
    await refused({ twitter: 'a_name_far_too_long_for_x' }, 'twitter', 'Enter your X (Twitter) profile address or @handle.');
    await refused({ linkedin: 'https://www.linkedin.com/company/knack' }, 'linkedin', 'Enter your LinkedIn profile address (linkedin.com/in/…) or its name.');
    await refused({ instagram: 'javascript:alert(1)' }, 'instagram', 'Enter your Instagram profile address or username.');
  });

  it('when Bea saves for Ana, then 404; an admin may; a visitor gets 401', async () => {
    await saveSocial(bea, ana.id, { twitter: 'bea' }).expect(404);
    await saveSocial(await adminMember(), ana.id, { twitter: 'ana' }).expect(200);
    await request(app).post(`/api/v2/user-setting/update-social/${ana.id}`).send(NONE).expect(401);
  });
});
