/**
 * The message modal's recipient search on the real database: members whose username starts with what is typed
 * (case-insensitive, typed spaces as underscores, dots and other signs as plain text), only activated accounts and
 * never the caller, in username order, bounded; each answers only its public id, username, name and photo; signed-in
 * members only.
 */
import request from 'supertest';
import { closeAccount, UserModel } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { freezeInWindow } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { bearer, createMember, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let jane: TestMember;

const search = (as: TestMember, query: Record<string, string | number>) => request(app).get('/api/v2/user/search-members').query(query).set(bearer(as));
const usernamesFor = async (as: TestMember, q: string, limit?: number) =>
  ((await search(as, { q, ...(limit ? { limit } : {}) }).expect(200)).body.members as { username: string }[]).map((member) => member.username);

beforeAll(() => {
  app = createTestApp();
});

beforeEach(async () => {
  await clearDatabase();
  jane = await createMember({ username: 'kai_jane' });
});

describe('GET /user/search-members', () => {
  it('when Jane types the start of usernames, then the members whose username starts with it answer, in username order, without her', async () => {
    await Promise.all(['kai.moreno', 'kai_lee', 'kaia', 'mika_kai', 'kx'].map((username) => createMember({ username })));
    expect(await usernamesFor(jane, 'kai')).toEqual(['kai.moreno', 'kai_lee', 'kaia']);
    // Anchored: 'kai' inside a username does not match, and typed capitals and spaces are matched as usernames are kept.
    expect(await usernamesFor(jane, 'KAI L')).toEqual(['kai_lee']);
    expect(await usernamesFor(jane, 'mika')).toEqual(['mika_kai']);
  });

  it('when what is typed has signs a pattern would read, then they are matched as plain text', async () => {
    await Promise.all(['kai.moreno', 'kaixmoreno', 'k.a'].map((username) => createMember({ username })));
    expect(await usernamesFor(jane, 'kai.')).toEqual(['kai.moreno']);
    expect(await usernamesFor(jane, '.*')).toEqual([]);
    expect(await usernamesFor(jane, 'k.')).toEqual(['k.a']);
    expect(await usernamesFor(jane, '(')).toEqual([]);
  });

  it(
    'when one member searches 60 times in a minute, then the next search gets 429; another member still searches',
    async () => {
      const other = await createMember({ username: 'other_one' });
      const clock = freezeInWindow(60_000, 1_000);
      try {
        const searches = await Promise.all(Array.from({ length: 61 }, () => search(jane, { q: 'kai' })));
        expect(searches.map((res) => res.status).sort()).toEqual([...Array<number>(60).fill(200), 429]);
        expect(searches.find((res) => res.status === 429)!.body.message).toBe('Too many searches. Please wait and try again.');
        await search(other, { q: 'kai' }).expect(200);
      } finally {
        clock.restore();
      }
    },
    // 61 searches at once, each a scan of the members on this database: a loaded machine took over 30 s.
    90_000,
  );

  it('when a member matches, then only their id, username, name and photo answer', async () => {
    const lee = await createMember({ username: 'kai_lee' });
    await UserModel.updateOne(
      { _id: lee.id },
      { $set: { fullName: 'Kai Lee', image: '/files/avatars/kai.jpg', bio: 'Private bio', email: 'kai@example.com' } },
    );
    const res = await search(jane, { q: 'kai_l' }).expect(200);
    expect(res.body).toEqual({ members: [{ id: lee.id, username: 'kai_lee', fullName: 'Kai Lee', image: '/files/avatars/kai.jpg' }] });
  });

  it('when accounts are not activated or closed, then they are left out: no message could reach them', async () => {
    const waiting = await createMember({ username: 'kai_waiting' });
    await UserModel.updateOne({ _id: waiting.id }, { $set: { isActive: false } });
    const closed = await createMember({ username: 'kai_closed' });
    await closeAccount(closed.id);
    await createMember({ username: 'kai_open' });
    expect(await usernamesFor(jane, 'kai')).toEqual(['kai_open']);
    expect(await usernamesFor(jane, 'deleted')).toEqual([]);
  });

  it('when many match, then at most 8 answer, or the limit asked for up to 20', async () => {
    await Promise.all(Array.from({ length: 22 }, (_, n) => createMember({ username: `kai_${String(n).padStart(2, '0')}` })));
    expect(await usernamesFor(jane, 'kai_')).toEqual(Array.from({ length: 8 }, (_, n) => `kai_${String(n).padStart(2, '0')}`));
    expect(await usernamesFor(jane, 'kai_', 20)).toHaveLength(20);
    const tooMany = await search(jane, { q: 'kai', limit: 21 }).expect(400);
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ path: expect.stringContaining('limit') })]);
  });

  it('when nothing or only spaces are typed, then 400 or no members', async () => {
    await createMember({ username: 'kai_lee' });
    await search(jane, { q: '' }).expect(400);
    expect(await usernamesFor(jane, '   ')).toEqual([]);
  });

  it('when no one is signed in, then 401', async () => {
    const res = await request(app).get('/api/v2/user/search-members').query({ q: 'kai' }).expect(401);
    expect(res.body.message).toBe('Please log in.');
  });
});
