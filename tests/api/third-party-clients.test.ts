/**
 * The contract as integrators take it: clients generated from the served /api/openapi.yaml by three generators the
 * project does not otherwise use (@hey-api/openapi-ts, orval, swagger-typescript-api) compile as they are, and the
 * first one, with nothing set by hand but an API key, reads a public feed to its end from the server it came from.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { parse } from 'yaml';
import { seedReferenceData } from '../../server/db/seed';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { bearer, createMember, createPiece } from '../helpers/ledger-factory';

// Three generators and a type check of their output: about 30 s on a quiet 2-core machine, more on a busy one.
jest.setTimeout(180_000);
useTestDatabase();

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const work = mkdtempSync(path.join(os.tmpdir(), 'knack-third-party-clients-'));

/** The worked example of the Integrating with Knack page, as a program: every title of the newest-first feed, page by page. */
const DRIVER = `import { client } from './hey/client.gen';
import { getContentsByKind } from './hey/sdk.gen';

async function main(): Promise<void> {
  client.setConfig({ auth: () => process.env.KNACK_API_KEY });
  const titles: string[] = [];
  const budgets: string[] = [];
  let cursor: string | undefined;
  do {
    const { data, error, response } = await getContentsByKind({ path: { kind: 'new' }, query: { limit: 2, cursor } });
    if (error || !data) throw new Error(\`\${response.status} \${JSON.stringify(error)}\`);
    budgets.push(response.headers.get('ratelimit') ?? '');
    titles.push(...data.contents.map((piece) => piece.title));
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  console.log(JSON.stringify({ titles, budgets }));
}

void main();
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    skipLibCheck: true,
    // The driver reads its key from the environment, as a program would: Node's types, from the project's own.
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    types: ['node'],
  },
  include: ['hey/**/*.ts', 'orval/**/*.ts', 'sta/**/*.ts', 'drive.ts'],
};

let server: Server;
let origin: string;
let app: ReturnType<typeof createTestApp>;

beforeAll(async () => {
  // The app learns its own address (PUBLIC_URL) once it listens: it serves the contract with that address.
  server = createServer((req, res) => app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = createTestApp({ config: { publicUrl: origin } });
  await seedReferenceData();
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

it('when clients are generated from the served contract by three generators, then each compiles, and one reads a feed to its end with only a key', async () => {
  const ana = await createMember();
  const titles = ['Dawn', 'Harbour', 'Lanterns', 'Market', 'Night bus', 'Orchard', 'Pier'];
  for (const title of titles) await createPiece(ana, { title });
  const key = await request(app)
    .post('/api/v2/api-keys')
    .set(bearer(ana))
    .send({ name: 'Generated client', scopes: ['catalogue:read'] })
    .expect(201);

  const served = await request(app).get('/api/openapi.yaml').expect(200);
  const contract = parse(served.text) as { servers: { url: string; variables?: Record<string, { default: string }> }[] };
  expect(contract.servers[0]!.url).toBe(`${origin}/api/v2`);
  expect(contract.servers[1]).toMatchObject({ url: 'https://{host}/api/v2', variables: { host: { default: 'knack.example' } } });
  writeFileSync(path.join(work, 'openapi.yaml'), served.text);

  const options = { cwd: work, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 };
  await Promise.all([
    run(bin('openapi-ts'), ['-i', 'openapi.yaml', '-o', 'hey', '-c', '@hey-api/client-fetch'], options),
    run(bin('orval'), ['--input', 'openapi.yaml', '--output', 'orval/api.ts', '--client', 'fetch'], options),
    run(bin('swagger-typescript-api'), ['generate', '-p', 'openapi.yaml', '-o', 'sta', '-n', 'api.ts'], options),
  ]);
  for (const dir of ['hey', 'orval', 'sta']) expect(readdirSync(path.join(work, dir)).some((file) => file.endsWith('.ts'))).toBe(true);

  writeFileSync(path.join(work, 'drive.ts'), DRIVER);
  writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  const compiled = await run(bin('tsc'), ['-p', 'tsconfig.json'], options).then(
    () => 'compiled',
    (err: { stdout?: string }) => err.stdout ?? String(err),
  );
  expect(compiled).toBe('compiled');

  const driven = await run(bin('tsx'), ['drive.ts'], { ...options, env: { ...process.env, KNACK_API_KEY: key.body.secret } });
  const { titles: read, budgets } = JSON.parse(driven.stdout) as { titles: string[]; budgets: string[] };
  expect(read).toEqual([...titles].reverse());
  expect(budgets).toHaveLength(4);
  const left = budgets.map((budget) => Number(/^"api-key";r=(\d+);t=\d+$/.exec(budget)?.[1]));
  expect(left).toEqual([left[0], left[0]! - 1, left[0]! - 2, left[0]! - 3]);
});
