/**
 * A property-based contract fuzzer. For every operation of openapi.yaml it sends requests made from the contract
 * and bent out of shape - wrong types, missing and extra fields, odd path and query values, broken bodies and
 * content types - as a visitor, as a member, as an admin, and with tokens the server must refuse. Whatever comes
 * in, the answer is never a 5xx and never shows how the server is built: JSON on /api (never an HTML page), the
 * error shape on every error, no stack trace, no file path.
 *
 * It is seeded, so a run is the same every time. A failure names its operation, the request and the seed; replay
 * it with `FUZZ_SEED=<seed> npx jest tests/api/contract-fuzz.test.ts -t '<operation>'`. FUZZ_RUNS sets how many
 * requests each operation gets (default 12), FUZZ_SEED tries other cases.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { outboxMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { createTestApp } from '../helpers/app';
import { CONTRACT_OPERATIONS, deref, type Operation, type Parameter, type Schema } from '../helpers/contract-operations';
import { createActiveMember, GOOD_PASSWORD, outboxMailbox } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';
import { png, wav } from '../helpers/media';

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_607);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

useTestDatabase();

// ---- the contract, read as data ----

const LAST = ['/content/delete', '/auth/logout-all'];
const OPERATIONS = CONTRACT_OPERATIONS.map(({ method, template, operation: op }) => ({ method, template, op }))
  // Deleting the piece and signing out everywhere (which revokes the member's token) go last, so that every other
  // call is fuzzed with the piece and as the member too.
  .sort((a, b) => Number(LAST.includes(a.template)) - Number(LAST.includes(b.template)));

// ---- the world the requests are made in ----

const outbox = mkdtempSync(path.join(os.tmpdir(), 'knack-fuzz-outbox-'));
const media = mkdtempSync(path.join(os.tmpdir(), 'knack-fuzz-media-'));
let app: ReturnType<typeof createTestApp>;
let server: http.Server;
/** The Stellar calls read Horizon: the stand-in answers them, so that a 503 there means what it says. */
let horizon: HorizonStandIn;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** Values the requests draw from, so that some of them reach real members, pieces and tags. */
const world = {
  tokens: {} as Record<'member' | 'admin' | 'revoked', string>,
  memberId: '',
  memberEmail: '',
  username: '',
  pieceId: '',
  tagIds: [] as string[],
  /** Uploads of the member not used by any piece yet. */
  photoPath: '',
  audioPath: '',
  png: Buffer.alloc(0) as Buffer,
  wav: Buffer.alloc(0) as Buffer,
};

beforeAll(async () => {
  horizon = await startHorizonStandIn();
  horizon.setOrderBook({ asks: [{ price: '0.1', amount: '1000' }] });
  app = createTestApp({
    mailer: outboxMailer(outbox, 'Knack <no-reply@knack.test>'),
    storage: localStorage(media),
    config: { stellar: horizon.stellarConfig },
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  await seedReferenceData();
  const mailbox = outboxMailbox(outbox);
  const [member, admin, revoked] = await Promise.all([
    createActiveMember(app, mailbox),
    createActiveMember(app, mailbox, { email: 'admin@knack.example' }),
    createActiveMember(app, mailbox),
  ]);
  await request(app).post('/api/v2/auth/logout-all').set('Authorization', `Bearer ${revoked.token}`).expect(200);
  world.tokens = { member: member.token, admin: admin.token, revoked: revoked.token };
  world.memberId = member.user.id;
  world.memberEmail = member.form.email;
  world.username = member.form.username;
  world.png = await png(32, 24);
  world.wav = wav(0.2);
  const photo = await request(app)
    .post('/api/v2/content/upload-photo')
    .set('Authorization', `Bearer ${member.token}`)
    .attach('file', world.png, 'p.png')
    .expect(201);
  const saved = await request(app)
    .post('/api/v2/content/save')
    .set('Authorization', `Bearer ${member.token}`)
    .send({ title: 'Harbour lights', description: 'At night', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: photo.body.path })
    .expect(201);
  world.pieceId = saved.body.content.id;
  const bearer = { Authorization: `Bearer ${member.token}` };
  world.photoPath = (await request(app).post('/api/v2/content/upload-photo').set(bearer).attach('file', world.png, 'q.png').expect(201)).body.path;
  world.audioPath = (await request(app).post('/api/v2/content/upload-audio').set(bearer).attach('file', world.wav, 's.wav').expect(201)).body.path;
  world.tagIds = (await request(app).get('/api/v2/tag/get-all').expect(200)).body.tags.map((tag: { id: string }) => tag.id);
});

afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
  await horizon.stop();
  rmSync(outbox, { recursive: true, force: true });
  rmSync(media, { recursive: true, force: true });
});

// ---- generators ----

/** Real values for fields of these names, mixed with generated ones. */
function knownValues(name: string): string[] {
  const ids = [world.memberId, world.pieceId, ...world.tagIds.slice(0, 2), '000000000000000000000000'];
  const known: Record<string, string[]> = {
    id: ids,
    userId: ids,
    contentId: ids,
    ownerId: ids,
    projectId: ids,
    username: [world.username, 'nobody_here'],
    email: [world.memberEmail, 'nobody@example.com'],
    paypal: ['payee@example.com'],
    slug: ['harbour-lights'],
    password: [GOOD_PASSWORD],
    passwordConfirm: [GOOD_PASSWORD],
    tag: ['Photos', 'Music', 'Travel'],
    subTag: ['Travel', 'Rock'],
    label: ['Photos', 'Travel'],
    name: ['Photos', 'Music'],
    q: ['harbour', 'a'],
    subTags: ['Travel', 'Rock'],
    title: ['Harbour lights', 'Blue hour'],
    description: ['At night'],
    photoPath: [world.photoPath],
    headerImage: [world.photoPath],
    headerImageEdited: [world.photoPath],
    audioPath: [world.audioPath],
    period: ['week', 'month'],
  };
  return known[name] ?? [];
}

/** Text that parsers and lookups have been known to trip on. */
const ODD_TEXT = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '1e309',
  '-1e309',
  '0x10',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '$where',
  '{"$gt":""}',
  '[object Object]',
  '../../etc/passwd',
  'a'.repeat(3000),
  '😀',
  '\u202e',
  '\u0000',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%',
  'ÿ',
  'ＡＢＣ',
];
/** Written into a URL as they are: broken escapes, escaped slashes and dots. */
const RAW_URL_PIECES = ['%E0%A4%A', '%00', '%2F', '%2e%2e', '%', '%ZZ', '..', '.', ';', '*', '%C0%AF', '%u0041'];

const oddUrlValue = fc.oneof(
  fc.constantFrom(...ODD_TEXT).map(encodeURIComponent),
  fc.constantFrom(...RAW_URL_PIECES),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
);

/** A valid-looking value for `schema` (a field called `name`). */
function fromSchema(given: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(given ?? {});
  const known = knownValues(name).filter((value) => fits(schema, value));
  let arbitrary: fc.Arbitrary<unknown>;
  if (schema.enum) arbitrary = fc.constantFrom(...schema.enum);
  else if (schema.anyOf || schema.oneOf) arbitrary = fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map((part) => fromSchema(part, name, depth + 1)));
  else if (schema.allOf) arbitrary = fromSchema(Object.assign({}, ...schema.allOf.map(deref)) as Schema, name, depth);
  else if (schema.type === 'string') arbitrary = stringFor(schema);
  else if (schema.type === 'integer') arbitrary = fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1_000_000 });
  else if (schema.type === 'number') arbitrary = fc.double({ min: schema.minimum ?? -5, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
  else if (schema.type === 'boolean') arbitrary = fc.boolean();
  else if (schema.type === 'array') {
    const minLength = schema.minItems ?? 0;
    arbitrary = fc.array(fromSchema(schema.items, name, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)) });
  } else if (schema.type === 'object' || schema.properties) {
    const properties = depth > 4 ? {} : (schema.properties ?? {});
    const fields = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, fromSchema(value, key, depth + 1)]));
    arbitrary = fc.record(fields, { requiredKeys: (schema.required ?? []).filter((key) => key in fields) });
  } else arbitrary = fc.jsonValue({ maxDepth: 2 });
  if (known.length && (schema.type === 'string' || !schema.type))
    arbitrary = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary });
  return schema.nullable ? fc.option(arbitrary, { nil: null, freq: 6 }) : arbitrary;
}

/** Whether a known value is one the field takes (its pattern, length and choices). */
function fits(schema: Schema, value: string): boolean {
  if (schema.enum) return schema.enum.includes(value);
  if (schema.type && schema.type !== 'string') return false;
  if (schema.pattern && !new RegExp(schema.pattern).test(value)) return false;
  return value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity);
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 30, 30));
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern), { size: 'xsmall' })
        .filter((text) => text.length >= minLength && text.length <= (schema.maxLength ?? Infinity));
    } catch {
      // A pattern fast-check cannot generate from (a lookahead): plain text, and the known values.
    }
  }
  return fc.string({ minLength, maxLength });
}

/** A value of some other type than the field wants. */
const wrongValue = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 12_345, 1.5, '', 'x', [], {}, ['a', 1], { $gt: '' }, { $ne: null }, 'x'.repeat(5000)),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Bodies that are not JSON, or JSON that trips parsers. */
const BROKEN_JSON = [
  '',
  '{',
  '{"a":',
  '[1,2',
  'nul',
  'undefined',
  'NaN',
  '{"limit":1e309}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '\uFEFF{}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '"text"',
  '123',
  'true',
  'null',
  '{"a":1}{"b":2}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":1,"a":2}',
];
const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/vnd.api+json'];
const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  '*/*',
  'garbage',
  '',
];

interface Body {
  contentType?: string;
  payload: string | Buffer;
  what: string;
}

/** A JSON object text with `key` first (kept even when it is `__proto__`), then the fields of `value`. */
function withField(value: unknown, key: string, extra: unknown): string {
  const rest = value && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value).slice(1, -1) : '';
  return `{${JSON.stringify(key)}:${JSON.stringify(extra) ?? 'null'}${rest ? `,${rest}` : ''}}`;
}

const json =
  (what: string, contentType = 'application/json') =>
  (value: unknown): Body => ({ contentType, payload: JSON.stringify(value) ?? 'null', what });

/** JSON bodies with one thing wrong: a field of the wrong type, a required one missing, one too many, or no JSON at all. */
function brokenJsonBody(schema: Schema): fc.Arbitrary<Body> {
  const valid = fromSchema(schema);
  const required = deref(schema).required ?? [];
  const keysOf = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(valid, fc.nat(), wrongValue).map(([value, index, wrong]) => {
        const keys = keysOf(value);
        if (!keys.length) return json('a body of the wrong type')(wrong);
        const key = keys[index % keys.length]!;
        return json(`the wrong type for ${key}`)({ ...(value as object), [key]: wrong });
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat()).map(([value, index]) => {
        const copy = { ...(value as Record<string, unknown>) };
        const missing = required.length ? required[index % required.length] : undefined;
        if (missing) delete copy[missing];
        return json(`no ${missing ?? 'field missing'}`)(copy);
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom('extra', '__proto__', 'constructor', '$set', '', 'userId', 'role', 'isAdmin'), wrongValue)
        .map(([value, key, extra]): Body => ({ contentType: 'application/json', payload: withField(value, key, extra), what: `an extra field ${key}` })),
    },
    { weight: 1, arbitrary: wrongValue.map(json('a whole body of the wrong type')) },
    { weight: 2, arbitrary: fc.constantFrom(...BROKEN_JSON).map((payload): Body => ({ contentType: 'application/json', payload, what: 'broken JSON' })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom<string | undefined>(...JSON_TYPES.slice(1), ...OTHER_TYPES, undefined))
        .map(([value, contentType]) => json(`a good body as ${contentType ?? 'no content type'}`, contentType)(value)),
    },
  );
}

/** Multipart bodies for the upload calls: files of the wrong kind, and bodies no parser can read. */
function brokenMultipartBody(): fc.Arbitrary<Body> {
  const part = (name: string, filename: string, type: string, bytes: Buffer) =>
    Buffer.concat([
      Buffer.from(`--xyz\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
      bytes,
      Buffer.from('\r\n'),
    ]);
  const end = Buffer.from('--xyz--\r\n');
  const form = 'multipart/form-data; boundary=xyz';
  return fc
    .constantFrom<() => Body>(
      () => ({ contentType: form, payload: Buffer.concat([part('file', 'a.png', 'image/png', world.png), end]), what: 'a PNG' }),
      () => ({ contentType: form, payload: Buffer.concat([part('file', 'a.wav', 'audio/wav', world.wav), end]), what: 'a WAV' }),
      () => ({ contentType: form, payload: Buffer.concat([part('file', 'a.txt', 'text/plain', Buffer.from('hello')), end]), what: 'a text file' }),
      () => ({ contentType: form, payload: Buffer.concat([part('photo', 'a.png', 'image/png', world.png), end]), what: 'a file in another field' }),
      () => ({
        contentType: form,
        payload: Buffer.concat([part('file', 'a.png', 'image/png', world.png), part('file', 'b.png', 'image/png', world.png), end]),
        what: 'two files',
      }),
      () => ({ contentType: form, payload: end, what: 'no parts' }),
      () => ({ contentType: 'multipart/form-data', payload: Buffer.concat([part('file', 'a.png', 'image/png', world.png), end]), what: 'no boundary' }),
      () => ({ contentType: form, payload: part('file', 'a.png', 'image/png', world.png).subarray(0, 120), what: 'cut off' }),
      () => ({ contentType: form, payload: Buffer.from('--xyz\r\n'), what: 'only a boundary' }),
      () => ({ contentType: form, payload: Buffer.concat([part('file', 'a\u0000.png', 'image/png', world.png), end]), what: 'a NUL in the file name' }),
      () => ({
        contentType: form,
        payload: Buffer.concat([part('file', '../../../etc/passwd', 'image/png', world.png), end]),
        what: 'a path as the file name',
      }),
      () => ({
        contentType: 'multipart/form-data; boundary=other',
        payload: Buffer.concat([part('file', 'a.png', 'image/png', world.png), end]),
        what: 'another boundary',
      }),
      () => ({ contentType: form, payload: Buffer.from(`--xyz\r\n${'X-Long: y\r\n'.repeat(2000)}\r\n\r\n--xyz--\r\n`), what: 'a huge part header' }),
      () => ({ contentType: 'application/json', payload: '{"file":"a.png"}', what: 'JSON instead of a form' }),
      () => ({ payload: world.png, what: 'a bare PNG, no content type' }),
    )
    .map((make) => make());
}

type Auth = 'visitor' | 'member' | 'admin' | 'revoked' | 'garbage' | 'basic' | 'alg none' | 'empty bearer';
const goodAuth = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Auth>('member') },
  { weight: 2, arbitrary: fc.constant<Auth>('visitor') },
  { weight: 1, arbitrary: fc.constant<Auth>('admin') },
);
const refusedAuth = fc.constantFrom<Auth>('revoked', 'garbage', 'basic', 'alg none', 'empty bearer');

function authorization(auth: Auth): string | undefined {
  const member = world.tokens.member;
  switch (auth) {
    case 'visitor':
      return undefined;
    case 'member':
    case 'admin':
    case 'revoked':
      return `Bearer ${world.tokens[auth]}`;
    case 'garbage':
      return 'Bearer garbage';
    case 'basic':
      return 'Basic YW5hOnNlY3JldA==';
    case 'alg none':
      return `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${member.split('.')[1]}.`;
    case 'empty bearer':
      return 'Bearer ';
  }
}

interface FuzzRequest {
  method: string;
  url: string;
  auth: Auth;
  cookie?: string;
  body?: Body;
  /** What was bent out of shape, if anything. */
  broken: string;
}

interface Parts {
  path: Record<string, string>;
  /** The `name=value` pairs of each query parameter. */
  query: Record<string, string[]>;
  extraQuery: string[];
  body: Body | undefined;
  auth: Auth;
  cookie?: string;
  broken: string;
}

/**
 * Requests for one operation: a request the contract accepts (real ids, members and tags where it names them),
 * or one with one thing broken - a path or query value, the body, the token or the cookie.
 */
function requestsFor({ method, template, op }: (typeof OPERATIONS)[number]): fc.Arbitrary<FuzzRequest> {
  const parameters = (op.parameters ?? []).map(deref);
  const inPath = parameters.filter((p) => p.in === 'path');
  const inQuery = parameters.filter((p) => p.in === 'query');
  const content = op.requestBody ? deref(op.requestBody).content : undefined;
  const jsonSchema = content?.['application/json']?.schema;
  const multipart = Boolean(content?.['multipart/form-data']);

  const goodValue = (p: Parameter) => fromSchema(p.schema, p.name).map((value) => encodeURIComponent(String(value)));
  const goodBody: fc.Arbitrary<Body | undefined> = multipart
    ? fc.constant(template.includes('audio') ? 'wav' : 'png').map((kind) => ({
        contentType: 'multipart/form-data; boundary=xyz',
        payload: Buffer.concat([
          Buffer.from(
            `--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.${kind}"\r\nContent-Type: ${kind === 'wav' ? 'audio/wav' : 'image/png'}\r\n\r\n`,
          ),
          kind === 'wav' ? world.wav : world.png,
          Buffer.from('\r\n--xyz--\r\n'),
        ]),
        what: `a ${kind}`,
      }))
    : jsonSchema
      ? fromSchema(jsonSchema).map(json('valid'))
      : fc.constant(undefined);
  const good: fc.Arbitrary<Parts> = fc.record({
    path: fc.record(Object.fromEntries(inPath.map((p) => [p.name, goodValue(p)]))),
    query: fc.record(
      Object.fromEntries(
        inQuery.map((p) => {
          const pair = goodValue(p).map((value) => [`${p.name}=${value}`]);
          // An optional parameter is left out twice as often as it is given.
          return [p.name, p.required ? pair : fc.oneof({ weight: 2, arbitrary: fc.constant([] as string[]) }, { weight: 1, arbitrary: pair })];
        }),
      ),
    ),
    extraQuery: fc.constant([] as string[]),
    body: goodBody,
    auth: goodAuth,
    broken: fc.constant('nothing'),
  });

  const breakages: fc.Arbitrary<(parts: Parts) => Parts>[] = [
    refusedAuth.map((auth) => (parts: Parts) => ({ ...parts, auth, broken: `a ${auth} token` })),
    fc
      .constantFrom('knack_refresh=garbage', 'knack_refresh=', 'knack_refresh=%E0%A4%A', 'knack_refresh=a; knack_refresh=b')
      .map((cookie) => (parts: Parts) => ({ ...parts, cookie, broken: 'the cookie' })),
    fc
      .constantFrom<string[]>(['x=1'], ['__proto__[polluted]=1'], ['constructor[prototype][polluted]=1'], ['&&=&'], ['a=%E0%A4%A'])
      .map((extraQuery) => (parts: Parts) => ({ ...parts, extraQuery, broken: 'an unknown query parameter' })),
  ];
  if (inPath.length) {
    breakages.push(
      fc
        .tuple(fc.constantFrom(...inPath.map((p) => p.name)), oddUrlValue)
        .map(([name, value]) => (parts: Parts) => ({ ...parts, path: { ...parts.path, [name]: value }, broken: `the path value ${name}` })),
    );
  }
  if (inQuery.length) {
    const oddPairs = (name: string) =>
      fc.oneof(
        oddUrlValue.map((value) => [`${name}=${value}`]),
        fc.constantFrom<string[]>([`${name}[]=1`, `${name}[]=2`], [`${name}[$gt]=`], [`${name}=1`, `${name}=2`], [name]),
      );
    breakages.push(
      fc
        .constantFrom(...inQuery.map((p) => p.name))
        .chain((name) =>
          oddPairs(name).map((pairs) => (parts: Parts) => ({ ...parts, query: { ...parts.query, [name]: pairs }, broken: `the query value ${name}` })),
        ),
    );
  }
  const badBody = multipart ? brokenMultipartBody() : jsonSchema ? brokenJsonBody(jsonSchema) : fc.oneof(brokenJsonBody({}), brokenMultipartBody());
  breakages.push(badBody.map((body) => (parts: Parts) => ({ ...parts, body, broken: `the body: ${body.what}` })));

  const parts = fc.oneof(
    { weight: 2, arbitrary: good },
    { weight: 3, arbitrary: fc.tuple(good, fc.oneof(...breakages)).map(([request, bend]) => bend(request)) },
  );
  return parts.map(({ path: values, query, extraQuery, body, auth, cookie, broken }) => {
    const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
    const pairs = [...Object.values(query).flat(), ...extraQuery];
    return { method: method.toUpperCase(), url: `/api/v2${filled}${pairs.length ? `?${pairs.join('&')}` : ''}`, auth, cookie, body, broken };
  });
}

// ---- sending, and what every answer must be ----

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

function send(fuzz: FuzzRequest): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  const headers: Record<string, string> = {};
  const auth = authorization(fuzz.auth);
  if (auth !== undefined) headers.Authorization = auth;
  if (fuzz.cookie) headers.Cookie = fuzz.cookie;
  const payload = fuzz.body ? Buffer.from(fuzz.body.payload) : undefined;
  if (fuzz.body?.contentType) headers['Content-Type'] = fuzz.body.contentType;
  if (payload) headers['Content-Length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: fuzz.method, path: fuzz.url, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** What is wrong with an answer, in words; empty when it is fine. */
function problemsOf(answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}`);
  if (/node_modules|dist\/server|\/server\/|\.ts:\d+:\d+/.test(answer.text)) problems.push('shows a file path of the server');
  if (/\bat \S+ \(.*:\d+:\d+\)|\n\s+at \S/.test(answer.text)) problems.push('shows a stack trace');
  if (/text\/html/.test(answer.contentType) || /<!DOCTYPE|<html/i.test(answer.text)) problems.push('answered HTML');
  if (answer.text && !/^application\/json/.test(answer.contentType)) problems.push(`answered ${answer.contentType || 'no content type'}, not JSON`);
  if (answer.status >= 400) {
    let body: { message?: unknown; code?: unknown } | undefined;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    if (typeof body?.message !== 'string' || typeof body?.code !== 'string') problems.push('is not in the error shape { message, code }');
  }
  return problems;
}

const describeRequest = (fuzz: FuzzRequest) =>
  [
    `broken: ${fuzz.broken}`,
    `${fuzz.method} ${fuzz.url.length > 300 ? `${fuzz.url.slice(0, 300)}…` : fuzz.url}`,
    `  as: ${fuzz.auth}${fuzz.cookie ? `, cookie ${fuzz.cookie}` : ''}`,
    fuzz.body ? `  body (${fuzz.body.what}, ${fuzz.body.contentType ?? 'no content type'}): ${String(fuzz.body.payload).slice(0, 300)}` : '  no body',
  ].join('\n');

describe('the contract, fuzzed: no 5xx and nothing of the server shown, whatever is sent', () => {
  it.each(OPERATIONS.map((operation, index) => [`${operation.method.toUpperCase()} ${operation.template}`, operation, index] as const))(
    '%s',
    async (name, operation, index) => {
      const seed = SEED + index;
      const failures: string[] = [];
      await fc
        .assert(
          fc.asyncProperty(requestsFor(operation), async (fuzz) => {
            const answer = await send(fuzz);
            const problems = problemsOf(answer);
            if (problems.length) {
              failures.push(
                `${describeRequest(fuzz)}\n  answer ${answer.status} ${answer.contentType}: ${answer.text.slice(0, 400)}\n  ${problems.join('; ')}`,
              );
            }
            return problems.length === 0;
          }),
          { seed, numRuns: RUNS, endOnFailure: true },
        )
        .catch((error: Error) => {
          throw new Error(`${name} (FUZZ_SEED=${SEED}, seed ${seed}):\n${failures.join('\n') || error.message}`);
        });
      expect(failures).toEqual([]);
    },
  );
});
