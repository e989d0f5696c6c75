/**
 * Personal settings on the real database: sex, birthday (a past date after 1900), bio (plain text, at most 1,000
 * characters) and the mail choices, saved for oneself or by an admin, answered as the account now is.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let ana: TestMember;
let bea: TestMember;

const DETAILS = { sex: 'W', birthday: '1994-03-08', bio: '  Songs from Lisbon.  ', willReceiveNews: false, willReceivePromotes: true };
const save = (caller: TestMember, id: string, body: Record<string, unknown>) =>
  request(app).post(`/api/v2/user-setting/update-personal/${id}`).set(bearer(caller)).send(body);

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
});

beforeEach(async () => {
  await clearDatabase();
  [ana, bea] = await Promise.all([createMember(), createMember()]);
});

describe('POST /user-setting/update-personal/{id}', () => {
  it('when Ana saves her details, then her account has them (the bio trimmed), and her public profile shows the bio', async () => {
    const res = await save(ana, ana.id, DETAILS).expect(200);
    expect(res.body.user).toMatchObject({ sex: 'W', birthday: '1994-03-08', bio: 'Songs from Lisbon.', willReceiveNews: false, willReceivePromotes: true });
    expect((await request(app).get(`/api/v2/user/profile/${ana.username}`).expect(200)).body.user.bio).toBe('Songs from Lisbon.');
    const cleared = await save(ana, ana.id, { sex: null, birthday: null, bio: '', willReceiveNews: true, willReceivePromotes: false }).expect(200);
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
      expect((await save(ana, ana.id, { ...DETAILS, birthday }).expect(400)).body.errors).toEqual([
        { path: 'birthday', message: 'Choose a birthday in the past (after 1900).' },
      ]);
    }
    await save(ana, ana.id, { ...DETAILS, birthday: '1994-02-30' }).expect(400);
    expect((await save(ana, ana.id, { ...DETAILS, bio: 'b'.repeat(1001) }).expect(400)).body.errors).toEqual([
      { path: 'bio', message: 'A bio can be at most 1,000 characters.' },
    ]);
    await save(ana, ana.id, { ...DETAILS, sex: 'X' }).expect(400);
    expect((await UserModel.findById(ana.id, { bio: 1 }).lean())!.bio).toBe('');
  });

  it('when Bea saves for Ana, then 404; an admin may; a visitor gets 401', async () => {
    await save(bea, ana.id, DETAILS).expect(404);
    await save(await adminMember(), ana.id, DETAILS).expect(200);
    await request(app).post(`/api/v2/user-setting/update-personal/${ana.id}`).send(DETAILS).expect(401);
  });
});
