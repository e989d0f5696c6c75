/**
 * What the contract tells integrators, kept true by reading it: the calls open to API keys name the key's security
 * scheme, declare the key's refusals and its RateLimit headers, and are the ones Spectral's rate-limit rule checks;
 * the servers are absolute; the error codes listed are the ones the server sends.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { servedContract } from '../../server/docs/docs.routes';
import { CONTRACT_OPERATIONS, deref } from '../helpers/contract-operations';
import { readContractDocument } from '../../server/lib/contract-routes';
import { OPENAPI_PATH } from '../../server/lib/paths';

const ROOT = path.resolve(__dirname, '../..');
const contract = readContractDocument(OPENAPI_PATH) as {
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
};
const KEY_OPERATIONS = CONTRACT_OPERATIONS.filter(({ operation }) => operation['x-key-scopes']);

interface Response {
  $ref?: string;
  headers?: Record<string, unknown>;
}
const responsesOf = (operation: unknown) => (operation as { responses: Record<string, Response> }).responses;

describe('the calls open to API keys', () => {
  it('when a call is marked for keys, then it names the apiKey scheme among its security, and only then', () => {
    const namesKey = ({ operation }: (typeof CONTRACT_OPERATIONS)[number]) => (operation.security ?? []).some((requirement) => 'apiKey' in requirement);
    expect(
      CONTRACT_OPERATIONS.filter((operation) => namesKey(operation) !== Boolean(operation.operation['x-key-scopes'])).map((o) => o.operation.operationId),
    ).toEqual([]);
    expect(KEY_OPERATIONS.length).toBeGreaterThan(20);
  });

  it('when a call is marked for keys, then it declares 401, 403 and 429, and every 2xx and 4xx answer declares RateLimit-Policy and RateLimit', () => {
    const missing: string[] = [];
    for (const { operation } of KEY_OPERATIONS) {
      const responses = responsesOf(operation);
      for (const status of ['401', '403', '429']) if (!responses[status]) missing.push(`${operation.operationId} ${status}`);
      for (const [status, raw] of Object.entries(responses)) {
        if (!/^[24]/.test(status)) continue;
        const headers = Object.keys(deref(raw).headers ?? {});
        if (!headers.includes('RateLimit-Policy') || !headers.includes('RateLimit')) missing.push(`${operation.operationId} ${status} headers`);
      }
      if (!deref(responses['429']!).headers?.['Retry-After']) missing.push(`${operation.operationId} 429 Retry-After`);
    }
    expect(missing).toEqual([]);
  });

  it('when a call is marked for keys, then Spectral’s rate-limit rule is on for its path, and for no other', () => {
    const spectral = parse(readFileSync(path.join(ROOT, '.spectral.yaml'), 'utf8')) as { overrides: { files: string[]; rules: Record<string, string> }[] };
    const checked = spectral.overrides
      .filter((override) => override.rules['owasp:api4:2023-rate-limit'] === 'error')
      .flatMap((override) => override.files)
      .map((file) => decodeURIComponent(file.replace('openapi.yaml#/paths/', '')).replace(/~1/g, '/').replace(/~0/g, '~'));
    expect(checked.sort()).toEqual([...new Set(KEY_OPERATIONS.map(({ template }) => template))].sort());
  });
});

describe('the servers', () => {
  it('when a generator reads the servers, then the first is production’s absolute URL, and the second any host, production’s by default', () => {
    const [production, anyHost] = contract.servers;
    expect(production!.url).toBe('https://knack.example/api/v2');
    expect(anyHost).toMatchObject({ url: 'https://{host}/api/v2', variables: { host: { default: new URL(production!.url).host } } });
  });

  it('when a deployment serves the contract, then the first server is its own address, and nothing else changes', () => {
    const text = readFileSync(OPENAPI_PATH, 'utf8');
    const served = servedContract(text, 'http://localhost:3000');
    expect((parse(served) as typeof contract).servers.map((server) => server.url)).toEqual(['http://localhost:3000/api/v2', 'https://{host}/api/v2']);
    expect(served.replace('http://localhost:3000/api/v2', 'https://knack.example/api/v2')).toBe(text);
  });
});

describe('the error codes', () => {
  /** Every file under a folder, at any depth. */
  const filesUnder = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
    });

  it('when the server answers an error, then its code is one the contract lists, and each listed code is one it sends', () => {
    const source = filesUnder(path.join(ROOT, 'server'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const thrown = [...source.matchAll(/AppError\(\s*\d{3},\s*'([a-z_]+)'/g)].map((match) => match[1]!);
    const byStatus = [...readFileSync(path.join(ROOT, 'server/lib/errors.ts'), 'utf8').matchAll(/^\s+\d{3}: '([a-z_]+)',$/gm)].map((match) => match[1]!);
    const sent = new Set([...thrown, ...byStatus, 'internal']);
    const listed = contract.components.schemas.ErrorResponse!.properties!.code!.enum!;
    expect([...sent].filter((code) => !listed.includes(code))).toEqual([]);
    expect(listed.filter((code) => !sent.has(code))).toEqual([]);
  });
});
