/**
 * Every call of the contract is served by the module its path names (`x-module`), and the routers serve no call the
 * contract lacks: the app hands each request to that one module's routers, so a route left out of the contract, or
 * served by another module than it names, would never be reached.
 */
import type { Router } from 'express';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiRouters } from '../../server/app';
import { buildServices } from '../../server/services';
import { compiledContractPath, contractSha256, modulesOfPaths, readContract, readContractDocument, type ModuleRouters } from '../../server/lib/contract-routes';
import { OPENAPI_PATH } from '../../server/lib/paths';
import { createLogger } from '../../server/lib/logger';
import { outboxMailer } from '../../server/integrations/mail';
import { localIpfsPinning } from '../../server/integrations/ipfs';
import { localStorage } from '../../server/integrations/storage';
import { testConfig } from '../helpers/app';

const BASE = '/api/v2';
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** `POST /knack/add` for each route of the routers, in the contract's spelling (`{id}`, not `:id`, without the base). */
function served(routers: Router[]): string[] {
  return routers.flatMap((router) =>
    (router.stack as Layer[]).flatMap((layer) => {
      if (!layer.route) return [];
      const path = layer.route.path.replace(/^\/api\/v2/, '').replace(/:(\w+)/g, '{$1}');
      return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
    }),
  );
}

function contractCalls(): Map<string, string[]> {
  const contract = readContract(OPENAPI_PATH) as unknown as { paths: Record<string, Record<string, unknown>> };
  const byModule = new Map<string, string[]>();
  for (const [path, module] of modulesOfPaths(OPENAPI_PATH)) {
    const calls = Object.keys(contract.paths[path.slice(BASE.length)]!)
      .filter((method) => METHODS.has(method))
      .map((method) => `${method.toUpperCase()} ${path.slice(BASE.length)}`);
    byModule.set(module, [...(byModule.get(module) ?? []), ...calls]);
  }
  return byModule;
}

describe('the routers and the contract', () => {
  const config = testConfig();
  const logger = createLogger('silent');
  const services = buildServices({
    config,
    logger,
    mailer: outboxMailer('/tmp/knack-unused-outbox', 'Knack <a@knack.test>'),
    storage: localStorage('/tmp/knack-unused'),
    ipfs: localIpfsPinning('/tmp/knack-unused-ipfs', config.publicUrl),
  });
  const { rawBody, json } = apiRouters(config, services);
  const byModule: ModuleRouters = {};
  for (const part of [rawBody, json]) for (const [module, list] of Object.entries(part)) byModule[module] = [...(byModule[module] ?? []), ...list];
  const calls = contractCalls();

  it('every path of the contract names a module that has routers', () => {
    const unknown = [...modulesOfPaths(OPENAPI_PATH)].filter(([, module]) => !byModule[module]);
    expect(unknown).toEqual([]);
    expect(modulesOfPaths(OPENAPI_PATH).size).toBeGreaterThan(70);
  });

  it.each(Object.keys(byModule))('the %s module serves exactly the calls the contract gives it', (module) => {
    expect(served(byModule[module]!).sort()).toEqual((calls.get(module) ?? []).sort());
  });
});

describe('the contract as the server reads it', () => {
  // A contract and its compiled copy in a folder of their own, laid out as the project's are.
  const contractIn = (yaml: string, copy?: { sourceOf: string; document: unknown }) => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'knack-contract-')), 'openapi.yaml');
    writeFileSync(file, yaml);
    if (copy) {
      mkdirSync(path.dirname(compiledContractPath(file)));
      writeFileSync(compiledContractPath(file), JSON.stringify({ sourceSha256: contractSha256(copy.sourceOf), document: copy.document }));
    }
    return file;
  };

  it('when the compiled copy was made from the contract as it is, then the copy is read', () => {
    const yaml = 'openapi: 3.0.3\ninfo: { title: From the YAML }\n';
    // The copy says something else on purpose, so that it shows which of the two was read.
    expect(readContractDocument(contractIn(yaml, { sourceOf: yaml, document: { info: { title: 'From the copy' } } }))).toEqual({
      info: { title: 'From the copy' },
    });
  });

  it('when the contract changed after the copy was made, or there is no copy, then the YAML is parsed: never a stale copy', () => {
    const yaml = 'openapi: 3.0.3\ninfo: { title: Edited }\n';
    const stale = contractIn(yaml, { sourceOf: 'openapi: 3.0.3\ninfo: { title: Before }\n', document: { info: { title: 'Before' } } });
    expect(readContractDocument(stale)).toEqual({ openapi: '3.0.3', info: { title: 'Edited' } });
    expect(readContractDocument(contractIn(yaml))).toEqual({ openapi: '3.0.3', info: { title: 'Edited' } });
  });

  it('when the contract lists shared answers (x-shared-responses), then every operation has them, and one that declares the status keeps its own', () => {
    const yaml = [
      'openapi: 3.0.3',
      'info: { title: Shared }',
      "x-shared-responses: { '503': { description: Down for a moment } }",
      'paths:',
      "  /a: { get: { responses: { '200': { description: Done } } }, post: { responses: { '503': { description: Its own } } } }",
    ].join('\n');
    const document = readContractDocument(contractIn(yaml)) as { paths: Record<string, Record<string, { responses: unknown }>> };
    expect(document.paths['/a']!.get!.responses).toEqual({ '200': { description: 'Done' }, '503': { description: 'Down for a moment' } });
    expect(document.paths['/a']!.post!.responses).toEqual({ '503': { description: 'Its own' } });
    // And openapi.yaml's every operation may answer 503.
    const contract = readContractDocument(OPENAPI_PATH) as {
      paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
    };
    const without = Object.values(contract.paths).flatMap((item) =>
      Object.values(item).filter((operation) => typeof operation === 'object' && operation.operationId && !operation.responses?.['503']),
    );
    expect(without).toEqual([]);
  });

  it("when the validator's own check of OpenAPI documents reads openapi.yaml, then it finds no fault (the server skips that check at start)", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { OpenAPISchemaValidator } = require('express-openapi-validator/dist/framework/openapi.schema.validator') as {
      OpenAPISchemaValidator: new (options: { version: string; validateApiSpec: boolean }) => { validate(document: unknown): { errors: unknown[] } };
    };
    const document = structuredClone(readContractDocument(OPENAPI_PATH)) as { openapi: string };
    expect(new OpenAPISchemaValidator({ version: document.openapi, validateApiSpec: true }).validate(document).errors).toEqual([]);
    // The committed copy is the current one (the generated-code test checks every generated file too).
    expect(JSON.parse(readFileSync(compiledContractPath(OPENAPI_PATH), 'utf8')).sourceSha256).toBe(contractSha256(readFileSync(OPENAPI_PATH, 'utf8')));
  });
});
