/**
 * API keys on the real database: a member makes, lists and revokes keys (shown once, kept as a hash, at most 10 at
 * a time), a key calls only what the contract marks for keys and its scopes allow, is counted against its own limit
 * with the budget on every answer, and never reaches a call that moves money or changes the account. The operations
 * are read from the contract, so a new one is covered without editing this file.
 */
import { createHash } from 'node:crypto';
import request, { type Test } from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { LedgerEntryModel } from '../../server/modules/ledger';
import { UserModel } from '../../server/modules/users';
import { ApiKeyModel, ApiKeySlotModel } from '../../server/modules/api-keys/testing';
import { createTestApp, testConfig } from '../helpers/app';
import { freezeDate, freezeInWindow } from '../helpers/clock';
import { CONTRACT_OPERATIONS, simplestRequest, type ContractOperation } from '../helpers/contract-operations';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, credit, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { png } from '../helpers/media';

useTestDatabase();

const app = createTestApp();
/** The same app with a limit of 3 requests a minute per key, to reach the limit in a few calls. */
const tightApp = createTestApp({ config: { auth: { ...testConfig().auth, apiKeyRequestsPerMinute: 3 } } });

const KEY = /^knk_[A-Za-z0-9_-]{43}$/;
const ALL_SCOPES = ['catalogue:read', 'earnings:read', 'upload'];
const MESSAGES = {
  created: 'Your API key is made. Copy it now: it is shown only this once.',
  revoked: 'The API key is revoked.',
  tooMany: 'You have 10 API keys, the most a member may have. Revoke one to make another.',
  noKey: 'This API key does not exist.',
  unknownKey: 'This API key is not known: check that it was copied whole, or make a new one in your settings.',
  revokedKey: 'This API key was revoked. Make a new one in your settings.',
  closedAccount: "This API key's account is closed or deactivated.",
  nameRequired: 'Give the key a name, so that you know later what uses it.',
  scopesRequired: 'Choose at least one thing the key may do.',
  tooManyRequests: 'This API key has made too many requests. Wait the seconds Retry-After gives, then try again.',
};
const notForKeys = (operationId: string) =>
  `An API key cannot make this call (${operationId}): it is for a signed-in member only. A key may make the calls whose x-key-scopes the contract lists.`;

let ana: TestMember;
let bea: TestMember;
let piece: TestPiece;

const withKey = (secret: string) => ({ Authorization: `Bearer ${secret}` });
const makeKey = (member: TestMember, body: { name: string; scopes: string[] }, on = app) => request(on).post('/api/v2/api-keys').set(bearer(member)).send(body);
async function newKey(member: TestMember, scopes = ALL_SCOPES, on = app): Promise<{ id: string; secret: string }> {
  const res = await makeKey(member, { name: `Key ${scopes.join(' ')}`, scopes }, on).expect(201);
  return { id: res.body.key.id, secret: res.body.secret };
}
const listKeys = (member: TestMember) => request(app).get('/api/v2/api-keys').set(bearer(member)).expect(200);
const catalogue = (secret: string, on = app) => request(on).get('/api/v2/content/get-by-kind/new').set(withKey(secret));

beforeAll(async () => {
  await seedReferenceData();
  [ana, bea] = await Promise.all([createMember(), createMember()]);
  piece = await createPiece(bea, { title: 'Harbour at noon' });
});

afterEach(() => jest.useRealTimers());

describe('making, listing and revoking keys', () => {
  it('when a member makes a key, then it is shown once, only its SHA-256 is stored, and the list shows it without the key', async () => {
    const res = await makeKey(ana, { name: '  Sales dashboard ', scopes: ['catalogue:read', 'earnings:read'] }).expect(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { key, secret, message } = res.body;
    expect(message).toBe(MESSAGES.created);
    expect(secret).toMatch(KEY);
    expect(key).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      name: 'Sales dashboard',
      scopes: ['catalogue:read', 'earnings:read'],
      start: secret.slice(0, 8),
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const stored = await ApiKeyModel.findById(createHash('sha256').update(secret).digest('base64url')).lean();
    expect(stored).toMatchObject({ publicId: key.id, name: 'Sales dashboard', revokedAt: null, lastUsedAt: null });
    expect(JSON.stringify(await ApiKeyModel.find({}).lean())).not.toContain(secret.slice(8));
    expect(JSON.stringify(await ApiKeySlotModel.find({}).lean())).not.toContain(secret.slice(8));
    const list = (await listKeys(ana)).body;
    expect(list).toEqual({ keys: [key], max: 10 });
    expect(JSON.stringify(list)).not.toContain(secret);
  });

  it('when a key is used, then its last use is written at most once a minute, and the list shows it', async () => {
    const clock = freezeDate();
    const { id, secret } = await newKey(bea, ['catalogue:read']);
    const firstUse = new Date();
    await catalogue(secret).expect(200);
    const used = async () => (await listKeys(bea)).body.keys.find((key: { id: string }) => key.id === id).lastUsedAt;
    expect(await used()).toBe(firstUse.toISOString());
    clock.advance(30_000);
    await catalogue(secret).expect(200);
    expect(await used()).toBe(firstUse.toISOString());
    clock.advance(31_000);
    await catalogue(secret).expect(200);
    expect(await used()).toBe(new Date().toISOString());
  });

  it('when a key is revoked, then its next request is 401, it leaves the list, and another member or a second revoke gets 404', async () => {
    const { id, secret } = await newKey(ana);
    await catalogue(secret).expect(200);
    const otherMember = await request(app).delete(`/api/v2/api-keys/${id}`).set(bearer(bea)).expect(404);
    expect(otherMember.body).toMatchObject({ code: 'not_found', message: MESSAGES.noKey });
    expect((await request(app).delete(`/api/v2/api-keys/${id}`).set(bearer(ana)).expect(200)).body).toEqual({ message: MESSAGES.revoked });
    const refused = await catalogue(secret).expect(401);
    expect(refused.body).toMatchObject({ code: 'unauthorized', message: MESSAGES.revokedKey });
    expect(refused.headers.ratelimit).toBeUndefined();
    expect((await listKeys(ana)).body.keys.map((key: { id: string }) => key.id)).not.toContain(id);
    await request(app).delete(`/api/v2/api-keys/${id}`).set(bearer(ana)).expect(404);
    expect(await ApiKeySlotModel.countDocuments({ keyId: createHash('sha256').update(secret).digest('base64url') })).toBe(0);
  });

  it('when a key has no name or no scope, or an unknown scope, then 400 says what is missing and nothing is stored', async () => {
    const before = await ApiKeyModel.countDocuments({});
    expect((await makeKey(ana, { name: '   ', scopes: ['upload'] }).expect(400)).body).toMatchObject({
      message: MESSAGES.nameRequired,
      errors: [{ path: 'name', message: MESSAGES.nameRequired }],
    });
    expect((await makeKey(ana, { name: 'Uploader', scopes: [] }).expect(400)).body.message).toBe(MESSAGES.scopesRequired);
    await makeKey(ana, { name: 'Mover', scopes: ['money:move'] }).expect(400);
    await makeKey(ana, { name: 'x'.repeat(61), scopes: ['upload'] }).expect(400);
    expect(await ApiKeyModel.countDocuments({})).toBe(before);
  });

  it('when a member asks for 12 keys at once, then exactly 10 are made, the rest get 409, and revoking one frees a place', async () => {
    const carl = await createMember();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => makeKey(carl, { name: `Key ${i}`, scopes: ['upload'] })));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(10);
    const refused = answers.filter((res) => res.status === 409);
    expect(refused).toHaveLength(2);
    for (const res of refused) expect(res.body).toMatchObject({ code: 'conflict', message: MESSAGES.tooMany });
    expect(await ApiKeyModel.countDocuments({ userId: carl.id })).toBe(10);
    const { keys } = (await request(app).get('/api/v2/api-keys').set(bearer(carl)).expect(200)).body;
    expect(keys).toHaveLength(10);
    await request(app).delete(`/api/v2/api-keys/${keys[3].id}`).set(bearer(carl)).expect(200);
    await makeKey(carl, { name: 'One more', scopes: ['upload'] }).expect(201);
    await makeKey(carl, { name: 'Too many', scopes: ['upload'] }).expect(409);
  });

  it('when a key is unknown, cut short or of a deactivated account, then 401 says which', async () => {
    const { secret } = await newKey(ana, ['catalogue:read']);
    expect((await catalogue(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`).expect(401)).body.message).toBe(MESSAGES.unknownKey);
    expect((await catalogue(secret.slice(0, 20)).expect(401)).body.message).toBe(MESSAGES.unknownKey);
    const dan = await createMember();
    const dans = await newKey(dan, ['catalogue:read']);
    await UserModel.updateOne({ _id: dan.id }, { $set: { deactivatedAt: new Date() } });
    expect((await catalogue(dans.secret).expect(401)).body).toMatchObject({ code: 'unauthorized', message: MESSAGES.closedAccount });
  });
  it('when a member’s account is deleted, then their keys and places are gone, and a key answers 401', async () => {
    const eve = await createMember();
    const { secret } = await newKey(eve, ['catalogue:read']);
    await request(app)
      .post(`/api/v2/user/delete/${eve.id}`)
      .set(bearer(await adminMember()))
      .send({})
      .expect(200);
    expect(await ApiKeyModel.countDocuments({ userId: eve.id })).toBe(0);
    expect(await ApiKeySlotModel.countDocuments({ userId: eve.id })).toBe(0);
    expect((await catalogue(secret).expect(401)).body.message).toBe(MESSAGES.unknownKey);
  });
});

describe('what a key may call, read from the contract', () => {
  const KEY_OPERATIONS = CONTRACT_OPERATIONS.filter(({ operation }) => operation['x-key-scopes']);
  const OTHER_OPERATIONS = CONTRACT_OPERATIONS.filter(({ operation }) => !operation['x-key-scopes']);
  /** Calls that move money or credits: a key must never reach them. */
  const MONEY = [
    'payForContent',
    'sellTag',
    'startPlay',
    'addKnack',
    'requestKnackCode',
    'requestCashOut',
    'cancelCashOut',
    'approveCashOut',
    'updatePaymentInfo',
    'createSubscription',
    'updateSubscription',
    'updatePlan',
    'checkDiscountCode',
    'redeemDiscountCode',
    'updateStandardCredits',
    'updatePremiumCredits',
    'updateBid',
    'sellBid',
    'approveBid',
    'cancelBid',
    'relistBid',
    'startNftMint',
    'prepareNftMint',
    'submitNftMint',
  ];
  /** Calls that change or reveal the account: a key must never reach them either. */
  const ACCOUNT = [
    'logoutAll',
    'changePassword',
    'updateUsername',
    'requestEmailChange',
    'updatePersonal',
    'updateRegional',
    'updateSocial',
    'getUserExt',
    'downloadMyData',
    'deleteMyAccount',
    'getWalletSummary',
    'linkWallet',
    'unlinkWallet',
    'listApiKeys',
    'createApiKey',
    'revokeApiKey',
  ];

  const send = (operation: ContractOperation, secret: string, known: Record<string, unknown> = {}) => {
    const { url, query, body } = simplestRequest(operation, known);
    const req = request(app)[operation.method](`/api/v2${url}`).query(query).set(withKey(secret));
    return (body === undefined ? req : req.send(body as object)) as Test;
  };
  const label = ({ method, template, operation }: ContractOperation) => `${operation.operationId} (${method.toUpperCase()} ${template})`;

  /** Kim's keys: one with every scope, and for each scope one with only it and one with all the others. */
  let kim: TestMember;
  let full: string;
  const only: Record<string, string> = {};
  const without: Record<string, string> = {};
  beforeAll(async () => {
    kim = await createMember();
    full = (await newKey(kim)).secret;
    for (const scope of ALL_SCOPES) {
      only[scope] = (await newKey(kim, [scope])).secret;
      without[scope] = (
        await newKey(
          kim,
          ALL_SCOPES.filter((other) => other !== scope),
        )
      ).secret;
    }
  });

  it('each operation a key may call needs one scope', () => {
    expect(KEY_OPERATIONS.filter(({ operation }) => operation['x-key-scopes']!.length !== 1)).toEqual([]);
  });

  it('the contract opens to keys the public catalogue, the member’s own earnings and uploads, and nothing of money or the account', () => {
    const marked = KEY_OPERATIONS.map(({ operation }) => operation.operationId);
    expect(marked.filter((id) => MONEY.includes(id) || ACCOUNT.includes(id))).toEqual([]);
    for (const id of [...MONEY, ...ACCOUNT]) expect(CONTRACT_OPERATIONS.some(({ operation }) => operation.operationId === id)).toBe(true);
    expect(KEY_OPERATIONS.filter(({ operation }) => operation['x-admin'])).toEqual([]);
    expect([...new Set(KEY_OPERATIONS.flatMap(({ operation }) => operation['x-key-scopes']!))].sort()).toEqual(ALL_SCOPES);
  });

  it.each(OTHER_OPERATIONS.map((operation) => [label(operation), operation] as const))(
    'when a key with every scope calls %s, then 403 says keys cannot make it, with the budget, and no money moves',
    async (_label, operation) => {
      const entries = await LedgerEntryModel.countDocuments({});
      const res = await send(operation, full, { userId: kim.id, contentId: piece.id, id: kim.id });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden', message: notForKeys(operation.operation.operationId) });
      expect(res.headers['ratelimit-policy']).toBe('"api-key";q=600;w=60');
      expect(await LedgerEntryModel.countDocuments({})).toBe(entries);
    },
  );

  it.each(KEY_OPERATIONS.map((operation) => [label(operation), operation] as const))(
    'when a key calls %s with its scope, then the key is let in; without the scope, 403 names the scope',
    async (_label, operation) => {
      const [needed] = operation.operation['x-key-scopes']!;
      const known = { id: kim.id, userId: kim.id, contentId: piece.id, username: bea.username, kind: 'new' };
      const allowed = await send(operation, only[needed!]!, known);
      // Let in: what answers is the call itself (a plan it needs, an id that does not exist), never the key's refusal.
      expect([401, 429]).not.toContain(allowed.status);
      expect(String(allowed.body?.message ?? '')).not.toMatch(/API key/);
      expect(allowed.headers.ratelimit).toMatch(/^"api-key";r=\d+;t=\d+$/);
      const refused = await send(operation, without[needed!]!, known).expect(403);
      expect(refused.body.message).toBe(
        `This API key may not do this: the call ${operation.operation.operationId} needs the scope ${needed}, which the key was not given. Make a key with it in your settings.`,
      );
    },
  );

  it('when a key calls a path that is no call of the contract, in any case or with a trailing slash, then it is held to the same marks', async () => {
    const { secret } = await newKey(ana);
    expect((await request(app).get('/api/v2/no/such/call').set(withKey(secret)).expect(404)).body.message).toBe('No API call GET /api/v2/no/such/call');
    const shouted = await request(app).get(`/api/v2/User-Setting/Get-Ext/${ana.id}`).set(withKey(secret)).expect(403);
    expect(shouted.body.message).toBe(notForKeys('getUserExt'));
    await request(app).get('/api/v2/content/get-by-kind/new/').set(withKey(secret)).expect(200);
  });

  it('when a key calls a read where signing in is optional, then it reads as its member; a revoked key gets 401 there too', async () => {
    const { id, secret } = await newKey(bea, ['catalogue:read']);
    const own = await request(app).get(`/api/v2/content/get-by-username/${bea.username}`).set(withKey(secret)).expect(200);
    expect(own.body.contents.map((content: { id: string }) => content.id)).toContain(piece.id);
    await request(app).delete(`/api/v2/api-keys/${id}`).set(bearer(bea)).expect(200);
    expect((await request(app).get(`/api/v2/content/get-by-id/${piece.id}`).set(withKey(secret)).expect(401)).body.message).toBe(MESSAGES.revokedKey);
    await request(app).get(`/api/v2/content/get-by-id/${piece.id}`).expect(200);
  });

  it('when a key with the upload scope uploads a photo and publishes it, then the piece is its member’s', async () => {
    const { secret } = await newKey(ana, ['upload']);
    const photo = await request(app)
      .post('/api/v2/content/upload-photo')
      .set(withKey(secret))
      .attach('file', await png(64, 48), 'p.png')
      .expect(201);
    expect(photo.headers.ratelimit).toMatch(/^"api-key";r=\d+;t=\d+$/);
    const saved = await request(app)
      .post('/api/v2/content/save')
      .set(withKey(secret))
      .send({ title: 'Made by a script', description: 'Uploaded with a key', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: photo.body.path })
      .expect(201);
    expect(saved.body.content).toMatchObject({ title: 'Made by a script', ownerUsername: ana.username });
  });

  it('when a key reads its member’s earnings, then it gets their history; another member’s id is 404', async () => {
    await credit(ana, 2_000_000);
    const { secret } = await newKey(ana, ['earnings:read']);
    await request(app).get(`/api/v2/user-history/get-all/${ana.id}`).set(withKey(secret)).expect(200);
    await request(app).get(`/api/v2/user-history/get-all/${bea.id}`).set(withKey(secret)).expect(404);
  });
});

describe('rate limits of keys', () => {
  it('when a key makes requests, then every answer says its budget, the 4th in a minute of 3 is 429 with Retry-After, and a member’s token gets no such headers', async () => {
    freezeInWindow(60_000, 18_000);
    const { secret } = await newKey(ana, ['catalogue:read'], tightApp);
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await catalogue(secret, tightApp).expect(200));
    expect(answers.map((res) => res.headers['ratelimit-policy'])).toEqual(Array(3).fill('"api-key";q=3;w=60'));
    expect(answers.map((res) => res.headers.ratelimit)).toEqual(['"api-key";r=2;t=42', '"api-key";r=1;t=42', '"api-key";r=0;t=42']);
    const refused = await catalogue(secret, tightApp).expect(429);
    expect(refused.body).toMatchObject({ code: 'too_many_requests', message: MESSAGES.tooManyRequests });
    expect(refused.headers['retry-after']).toBe('42');
    expect(refused.headers.ratelimit).toBe('"api-key";r=0;t=42');
    const member = await request(tightApp).get('/api/v2/content/get-by-kind/new').set(bearer(ana)).expect(200);
    expect(member.headers.ratelimit).toBeUndefined();
    expect(member.headers['ratelimit-policy']).toBeUndefined();
  });

  it('when a key sends 8 requests at once under a limit of 3, then exactly 3 are answered and 5 get 429', async () => {
    freezeInWindow(60_000, 5_000);
    const { secret } = await newKey(bea, ['catalogue:read'], tightApp);
    const answers = await Promise.all(Array.from({ length: 8 }, () => catalogue(secret, tightApp)));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(3);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(5);
  });

  it('when a public page a visitor read is asked again with a key, then the key is checked and counted, and the visitor’s copy carries no budget', async () => {
    const { id, secret } = await newKey(bea, ['catalogue:read']);
    const url = '/api/v2/content/get-by-kind/popular?limit=7';
    await request(app).get(url).expect(200);
    const keyed = await request(app).get(url).set(withKey(secret)).expect(200);
    expect(keyed.headers.ratelimit).toMatch(/^"api-key";r=\d+;t=\d+$/);
    const visitor = await request(app).get(url).expect(200);
    expect(visitor.headers.ratelimit).toBeUndefined();
    await request(app).delete(`/api/v2/api-keys/${id}`).set(bearer(bea)).expect(200);
    await request(app).get(url).set(withKey(secret)).expect(401);
  });
});
