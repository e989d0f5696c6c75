/**
 * Social profiles on the real database: addresses or names on each site kept as the profile's address, anything
 * else refused with the site's message, shown on the public profile, and saved only by the member or an admin.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;

const NONE = { facebook: '', twitter: '', linkedin: '', instagram: '' };
const save = (caller: TestMember, id: string, body: Record<string, string>) =>
  request(app)
    .post(`/api/v2/user-setting/update-social/${id}`)
    .set(bearer(caller))
    .send({ ...NONE, ...body });

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
});

beforeEach(async () => {
  await clearDatabase();
  [ana, bea] = await Promise.all([createMember(), createMember()]);
});

describe('POST /user-setting/update-social/{id}', () => {
  it('when Ana gives addresses and names, then each is kept as the profile’s address and her public profile shows them', async () => {
    const res = await save(ana, ana.id, {
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
    expect((await save(ana, ana.id, { twitter: 'https://twitter.com/ana_lima' }).expect(200)).body).toEqual({ ...NONE, twitter: 'https://x.com/ana_lima' });
  });

  it('when an address is another site’s or a name breaks the site’s rule, then 400 with that site’s message on its field', async () => {
    const refused = async (body: Record<string, string>, path: string, message: string) => {
      expect((await save(ana, ana.id, body).expect(400)).body.errors).toEqual([{ path, message }]);
    };
    await refused({ facebook: 'https://evil.example/ana.lima' }, 'facebook', 'Enter your Facebook profile address or username.');
    await refused({ twitter: 'a_name_far_too_long_for_x' }, 'twitter', 'Enter your X (Twitter) profile address or @handle.');
    await refused({ linkedin: 'https://www.linkedin.com/company/knack' }, 'linkedin', 'Enter your LinkedIn profile address (linkedin.com/in/…) or its name.');
    await refused({ instagram: 'javascript:alert(1)' }, 'instagram', 'Enter your Instagram profile address or username.');
  });

  it('when Bea saves for Ana, then 404; an admin may; a visitor gets 401', async () => {
    await save(bea, ana.id, { twitter: 'bea' }).expect(404);
    await save(await adminMember(), ana.id, { twitter: 'ana' }).expect(200);
    await request(app).post(`/api/v2/user-setting/update-social/${ana.id}`).send(NONE).expect(401);
  });
});
