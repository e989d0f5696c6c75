/**
 * The scale benchmark's list of calls (scripts/bench-scale.calls.ts) covers every `GET` the app's pages call and
 * every `GET` an API key may call: the pages' calls are read from the client's code (the generated hooks and
 * endpoints it uses), so a page's new call without an entry in the list fails here. Each entry is a `GET` of the
 * contract, and its path fits the operation's path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SCALE_CALLS, type Fixture } from '../../scripts/bench-scale.calls';

const ROOT = path.resolve(__dirname, '../..');
const contract = parse(readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; 'x-key-scopes'?: string[] }>>;
};
const gets = new Map(
  Object.entries(contract.paths).flatMap(([route, methods]) =>
    methods.get?.operationId ? [[methods.get.operationId, { route, operation: methods.get }] as const] : [],
  ),
);

/** Every .ts/.tsx file under the client's source, but the generated client itself. */
function clientFiles(dir = path.join(ROOT, 'client/src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : clientFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const capitalized = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** The GET operations the client's code uses: by a query hook (`useXQuery`, `useLazyXQuery`, `useXInfiniteQuery`) or `endpoints.x`. */
function getsTheClientCalls(): string[] {
  const code = clientFiles()
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  return [...gets.keys()].filter((operationId) => {
    const name = capitalized(operationId);
    return [`use${name}Query`, `useLazy${name}Query`, `use${name}InfiniteQuery`, `endpoints.${operationId}.`].some((use) => code.includes(use));
  });
}

const listed = new Set(SCALE_CALLS.map((call) => call.operationId));

test('the client is read: it calls dozens of GETs, among them the unread badge and the wallet', () => {
  const called = getsTheClientCalls();
  expect(called.length).toBeGreaterThan(50);
  expect(called).toEqual(expect.arrayContaining(['getMessageCounts', 'getWalletSummary', 'getContentsByKind']));
});

test('every GET a page calls has an entry in the scale benchmark', () => {
  expect(getsTheClientCalls().filter((operationId) => !listed.has(operationId))).toEqual([]);
});

test('every GET an API key may call has an entry in the scale benchmark', () => {
  const polled = [...gets].filter(([, { operation }]) => operation['x-key-scopes']?.length).map(([operationId]) => operationId);
  expect(polled.length).toBeGreaterThan(10);
  expect(polled.filter((operationId) => !listed.has(operationId))).toEqual([]);
});

test("each entry is a GET of the contract, asked at the operation's path", () => {
  const id = '0123456789abcdef01234567';
  const fixture: Fixture = {
    member: { id, username: 'ana_silva_1' },
    artist: { id, username: 'nora_vale' },
    piece: { id, slug: 'blue-jazz-night', ownerUsername: 'nora_vale' },
    artistPiece: { id },
    mainTag: { id, label: 'Music' },
    subTag: { id, label: 'Hip Hop' },
    threadId: id,
    projectId: id,
    entryId: `knack:${id}:${id}`,
    lastMonth: '2026-10',
  };
  for (const call of SCALE_CALLS) {
    const get = gets.get(call.operationId);
    expect({ operationId: call.operationId, isGet: Boolean(get) }).toEqual({ operationId: call.operationId, isGet: true });
    const pattern = new RegExp(`^${get!.route.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`);
    expect({ operationId: call.operationId, path: call.path(fixture) }).toEqual({ operationId: call.operationId, path: expect.stringMatching(pattern) });
  }
});
