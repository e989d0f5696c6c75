/**
 * What a contract fuzzer found (tests/api/contract-fuzz.test.ts keeps looking): every answer of the API is JSON in
 * the error shape with a status the contract declares, never an HTML page with a stack trace, never a 5xx for a
 * request that is merely wrong.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request, { type Response } from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { outboxMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { createTestApp } from '../helpers/app';
import { createActiveMember, outboxMailbox } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { png } from '../helpers/media';

useTestDatabase();

const outbox = mkdtempSync(path.join(os.tmpdir(), 'knack-contract-outbox-'));
const media = mkdtempSync(path.join(os.tmpdir(), 'knack-contract-media-'));
const app = createTestApp({ mailer: outboxMailer(outbox, 'Knack <no-reply@knack.test>'), storage: localStorage(media) });
type Member = Awaited<ReturnType<typeof createActiveMember>>;
let ana: Member;
let revoked: Member;
let piece: { id: string };

beforeAll(async () => {
  await seedReferenceData();
  ana = await createActiveMember(app, outboxMailbox(outbox));
  revoked = await createActiveMember(app, outboxMailbox(outbox));
  await request(app).post('/api/v2/auth/logout-all').set('Authorization', `Bearer ${revoked.token}`).expect(200);
  const photo = await request(app)
    .post('/api/v2/content/upload-photo')
    .set('Authorization', `Bearer ${ana.token}`)
    .attach('file', await png(64, 48), 'p.png')
    .expect(201);
  const saved = await request(app)
    .post('/api/v2/content/save')
    .set('Authorization', `Bearer ${ana.token}`)
    .send({ title: 'Harbour lights', description: 'At night', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: photo.body.path })
    .expect(201);
  piece = saved.body.content;
});
afterAll(() => {
  rmSync(outbox, { recursive: true, force: true });
  rmSync(media, { recursive: true, force: true });
});

/** What an integrator must always get: JSON in the error shape, and nothing about our files. */
function errorShapeOf(res: Response) {
  return {
    json: /application\/json/.test(String(res.headers['content-type'])),
    message: typeof res.body?.message,
    code: typeof res.body?.code,
    leaksFiles: /node_modules|dist\/server|\/server\/|\bat .+:\d+:\d+/.test(res.text),
  };
}
const ERROR_SHAPE = { json: true, message: 'string', code: 'string', leaksFiles: false };

describe('an unknown tag or sub-tag on a feed', () => {
  it.each([
    ['GET /content/get-featured?tag=garbage', () => request(app).get('/api/v2/content/get-featured?tag=garbage')],
    ['GET /content/get-featured?subTag=garbage', () => request(app).get('/api/v2/content/get-featured?subTag=garbage')],
    ['GET /content/get-by-kind/popular?tag=garbage', () => request(app).get('/api/v2/content/get-by-kind/popular?tag=garbage')],
    ['GET /content/get-by-kind/new?subTag=garbage', () => request(app).get('/api/v2/content/get-by-kind/new?subTag=garbage')],
    ['GET /content/search-contents?q=x&tag=garbage', () => request(app).get('/api/v2/content/search-contents?q=x&tag=garbage')],
    [
      'POST /content/get-by-subtags {"subTags":["garbage"]}',
      () =>
        request(app)
          .post('/api/v2/content/get-by-subtags')
          .send({ subTags: ['garbage'] }),
    ],
  ])('when %s is called, then 404 says there is no such tag', async (_call, call) => {
    const res = await call();
    expect(res.status).toBe(404);
    expect(errorShapeOf(res)).toEqual(ERROR_SHAPE);
    expect(res.body).toMatchObject({ code: 'not_found', message: 'There is no tag named garbage.' });
  });
});

describe('a token that is sent and refused, where signing in is optional', () => {
  const REFUSED: [string, () => string][] = [
    ['garbage', () => 'Bearer garbage'],
    ['tampered', () => `Bearer ${ana.token.slice(0, -3)}${ana.token.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`],
    // The member's own claims, unsigned.
    ['alg none', () => `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${ana.token.split('.')[1]}.`],
    ['Basic', () => 'Basic YW5hOnNlY3JldA=='],
    ['revoked by logout-all', () => `Bearer ${revoked.token}`],
  ];
  const CALLS: [string, () => string][] = [
    ['content/get-by-id/{id}', () => `/api/v2/content/get-by-id/${piece.id}`],
    ['content/count/{id}', () => `/api/v2/content/count/${ana.user.id}`],
    ['content/get-by-username/{username}', () => `/api/v2/content/get-by-username/${ana.form.username}`],
    ['content/get-by-link/{username}/{slug}', () => `/api/v2/content/get-by-link/${ana.form.username}/harbour-lights`],
    ['content/detail/{contentId}/for-user/guest', () => `/api/v2/content/detail/${piece.id}/for-user/guest`],
  ];

  it.each(CALLS)('when %s is called without a token, then a visitor gets it', async (_name, url) => {
    await request(app).get(url()).expect(200);
  });

  it.each(CALLS.flatMap(([name, url]) => REFUSED.map(([kind, header]) => [name, kind, url, header] as const)))(
    'when %s is called with a %s token, then 401 asks to log in again',
    async (_name, _kind, url, header) => {
      const res = await request(app).get(url()).set('Authorization', header());
      expect(res.status).toBe(401);
      expect(errorShapeOf(res)).toEqual(ERROR_SHAPE);
      expect(res.body.code).toBe('unauthorized');
    },
  );

  it('when a token is refused, then its message says why: unreadable, not issued here, or expired', async () => {
    const unreadable = 'This access token cannot be read: send the token that signing in answered, whole, as "Authorization: Bearer <token>".';
    const notOurs = 'This access token was not issued by this server (its signature, issuer or audience does not match). Please log in again.';
    const expired = 'Your session has expired. Please log in again.';
    const url = `/api/v2/content/get-by-id/${piece.id}`;
    const messageFor = async (header: string) => (await request(app).get(url).set('Authorization', header).expect(401)).body.message;
    expect(await messageFor('Bearer garbage')).toBe(unreadable);
    expect(await messageFor(`Bearer ${ana.token.split('.').slice(0, 2).join('.')}`)).toBe(unreadable);
    expect(await messageFor(REFUSED[1]![1]())).toBe(notOurs);
    expect(await messageFor(REFUSED[2]![1]())).toBe(notOurs);
    expect(await messageFor(`Bearer ${revoked.token}`)).toBe(expired);
  });

  it('when content/react is called with a revoked token, then 401 too (and as a visitor it counts)', async () => {
    const refused = await request(app).post('/api/v2/content/react').set('Authorization', `Bearer ${revoked.token}`).send({ contentId: piece.id });
    expect(refused.status).toBe(401);
    expect(errorShapeOf(refused)).toEqual(ERROR_SHAPE);
    await request(app).post('/api/v2/content/react').send({ contentId: piece.id }).expect(200);
  });
});

describe('a malformed multipart body on the upload calls', () => {
  const UPLOADS = ['/api/v2/content/upload-photo', '/api/v2/content/upload-audio', '/api/v2/user/upload-photo', '/api/v2/user/upload-header-image'];
  const head = (name: string) => `--xyz\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`;
  const BODIES: [string, string, () => Promise<Buffer>][] = [
    ['no boundary', 'multipart/form-data', async () => Buffer.from(`${head('a.png')}abc\r\n--xyz--\r\n`)],
    [
      'a body cut off before the closing boundary',
      'multipart/form-data; boundary=xyz',
      async () => Buffer.concat([Buffer.from(head('a.png')), await png(8, 8)]),
    ],
    ['only the opening boundary', 'multipart/form-data; boundary=xyz', async () => Buffer.from('--xyz\r\n')],
    [
      'a NUL in the file name',
      'multipart/form-data; boundary=xyz',
      async () => Buffer.concat([Buffer.from(head('a\u0000.png')), await png(8, 8), Buffer.from('\r\n--xyz--\r\n')]),
    ],
  ];

  it.each(UPLOADS.flatMap((url) => BODIES.map(([what, type, body]) => [url, what, type, body] as const)))(
    'when %s gets %s, then 400',
    async (url, _what, type, body) => {
      const res = await request(app)
        .post(url)
        .set('Authorization', `Bearer ${ana.token}`)
        .set('Content-Type', type)
        .send(await body());
      expect(res.status).toBe(400);
      expect(errorShapeOf(res)).toEqual(ERROR_SHAPE);
      expect(res.body.code).toBe('bad_request');
    },
  );

  it('when a NUL reaches the file name through its encoded form, then the upload is kept under a clean name', async () => {
    const body = Buffer.concat([
      Buffer.from(`--xyz\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''a%00b.png\r\nContent-Type: image/png\r\n\r\n`),
      await png(8, 8),
      Buffer.from('\r\n--xyz--\r\n'),
    ]);
    const res = await request(app)
      .post('/api/v2/content/upload-photo')
      .set('Authorization', `Bearer ${ana.token}`)
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send(body);
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain('\\u0000');
  });
});

describe('page sizes', () => {
  const PAGED = [
    '/tag/get-top-sub-tags/{tag}',
    '/content/get-featured',
    '/content/get-all',
    '/content/get-by-kind/new',
    '/content/get-by-tag?tag=Photos',
    '/content/get-by-username/{username}',
    '/content/get-supported/{me}',
    '/content/search-contents?q=harbour',
    '/content/get-all-titles?q=harbour',
    '/content/get-all-owners?q=ana',
    '/user/get-users',
    '/user/get-users-by-fans',
    '/user/get-trending-users',
    '/user-history/get-all/{me}',
    '/user-history/get-paid/{me}',
  ];
  let tagId: string;
  beforeAll(async () => {
    tagId = (await request(app).get('/api/v2/tag/get-all').expect(200)).body.tags.find((t: { label: string }) => t.label === 'Photos').id;
  });
  const url = (template: string, limit: string) => {
    const filled = template.replace('{tag}', tagId).replace('{username}', ana.form.username).replace('{me}', ana.user.id);
    return `/api/v2${filled}${filled.includes('?') ? '&' : '?'}limit=${limit}`;
  };

  it.each(PAGED.flatMap((template) => ['Infinity', '1e309', '-1e309', '0x10', '1e1', '%205'].map((limit) => [template, limit])))(
    'when %s is asked for limit=%s, then 400 names the limit',
    async (template, limit) => {
      const res = await request(app).get(url(template, limit)).set('Authorization', `Bearer ${ana.token}`);
      expect(res.status).toBe(400);
      expect(errorShapeOf(res)).toEqual(ERROR_SHAPE);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'limit' })]);
      expect(res.body.message).toMatch(/^limit /);
    },
  );

  it.each(PAGED)('when %s is asked for limit=5, then it answers', async (template) => {
    await request(app).get(url(template, '5')).set('Authorization', `Bearer ${ana.token}`).expect(200);
  });

  it('when get-all is asked for limit=Infinity, then it refuses rather than answering every piece', async () => {
    const res = await request(app).get('/api/v2/content/get-all?limit=Infinity').expect(400);
    expect(res.body.message).toBe('limit must be a number written in plain digits');
  });

  it('when a JSON body holds a number too large for a double, then 400 (it parses as Infinity)', async () => {
    const res = await request(app).post('/api/v2/content/get-by-subtags').set('Content-Type', 'application/json').send('{"subTags":["Travel"],"limit":1e309}');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'limit' })]);
  });
});

describe('types in JSON bodies are exact', () => {
  it.each([
    ['a number for a string', { token: 12345 }],
    ['a boolean for a string', { token: true }],
    ['null for a string', { token: null }],
  ])('when auth/confirm gets %s, then 400 names the field', async (_what, body) => {
    const res = await request(app).post('/api/v2/auth/confirm').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', message: 'token must be string', errors: [{ path: 'token', message: 'must be string' }] });
  });

  it.each([
    ['true', true],
    ['"20"', '20'],
    ['null', null],
  ])('when an integer field gets %s, then 400 names the field', async (_what, limit) => {
    const res = await request(app)
      .post('/api/v2/content/get-by-subtags')
      .send({ subTags: ['Travel'], limit });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'limit', message: 'must be integer' }]);
  });

  it('when the same values come in the query string, then they are still read as numbers', async () => {
    const res = await request(app).get('/api/v2/content/get-all?limit=1').expect(200);
    expect(res.body.contents).toHaveLength(1);
  });
});
